import ArgumentParser
import StickerRenderer

/// A time written with a unit or as seconds: `2.5s`, `2500ms`, `2.5`. A number outside what
/// ``DurationParsing`` takes (`nan`, `-1`) is kept as that number, so the option's bounds check
/// names its range rather than the parser calling the value invalid.
struct TimeArgument: ExpressibleByArgument {
    /// The time in seconds.
    let seconds: Double

    init?(argument: String) {
        guard let seconds = DurationParsing.seconds(argument) ?? Double(argument) else { return nil }
        self.seconds = seconds
    }
}
