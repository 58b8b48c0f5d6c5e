import ArgumentParser
import StickerRenderer

/// A number option written in decimal: `29.97`, `1e-3`, `+2.5`, `-1`, `nan`, `inf`. Swift's
/// `Double(_:)` also reads hexadecimal (`0x10` and `0x1p4` are both 16), which nobody means by a
/// frame rate, a PSNR or a speed, so that is not taken as a number; out-of-range values,
/// negative ones, `nan` and `inf` among them, are left to the option's range check, which names
/// the range.
struct DecimalNumber: ExpressibleByArgument, CustomStringConvertible, Sendable {
    /// The number.
    let value: Double

    /// `value` itself, as an option's default.
    init(_ value: Double) { self.value = value }

    init?(argument: String) {
        guard DurationParsing.isDecimal(Substring(argument)) || Self.isSpecial(argument),
            let value = Double(argument)
        else { return nil }
        self.value = value
    }

    /// Whether `text` is `nan`, `inf` or `infinity`, signed or not, in any case: kept as that
    /// number so the option's range check names its range.
    static func isSpecial(_ text: String) -> Bool {
        let unsigned = text.first.map { "+-".contains($0) } == true ? text.dropFirst() : Substring(text)
        return ["nan", "inf", "infinity"].contains(unsigned.lowercased())
    }

    /// The number as Swift writes a `Double`: `20.0`.
    var description: String { String(value) }

    var defaultValueDescription: String { description }
}
