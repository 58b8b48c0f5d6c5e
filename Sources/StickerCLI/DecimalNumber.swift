import ArgumentParser

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
        let unsigned = argument.first.map { "+-".contains($0) } == true ? argument.dropFirst() : Substring(argument)
        let special = ["nan", "inf", "infinity"].contains(unsigned.lowercased())
        let decimal =
            unsigned.first.map { $0.isASCII && ($0.isNumber || $0 == ".") } == true
            && unsigned.allSatisfy { $0.isASCII && ($0.isNumber || ".eE+-".contains($0)) }
        guard special || decimal, let value = Double(argument) else { return nil }
        self.value = value
    }

    /// The number as Swift writes a `Double`: `20.0`.
    var description: String { String(value) }

    var defaultValueDescription: String { description }
}
