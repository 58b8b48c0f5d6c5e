import ArgumentParser
import StickerRenderer

/// A time written with a unit or as seconds: `2.5s`, `2500ms`, `2.5`. A negative time (`-1`)
/// or `nan`/`inf` is kept as that number, so the option's bounds check names its range rather
/// than the parser calling the value invalid; anything else ``DurationParsing`` does not take
/// (`0x10`, `soon`) is invalid.
struct TimeArgument: ExpressibleByArgument {
    /// The time in seconds.
    let seconds: Double

    init?(argument: String) {
        let negated = argument.hasPrefix("-") ? DurationParsing.seconds(String(argument.dropFirst())).map { -$0 } : nil
        let special = DecimalNumber.isSpecial(argument) ? Double(argument.lowercased()) : nil
        guard let seconds = DurationParsing.seconds(argument) ?? negated ?? special else { return nil }
        self.seconds = seconds
    }
}
