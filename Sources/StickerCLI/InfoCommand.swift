import AnimationCodec
import ArgumentParser
import FoundationEssentials

/// `stickers info FILE [--json]`: what a file holds, without decoding its pixels.
public struct InfoCommand: ParsableCommand {
    /// Command name and help.
    public static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Print a file's format, canvas, loop count and every frame's timing and placement.")

    /// The image to inspect.
    @Argument(
        help: ArgumentHelp("The image file (format detected from its bytes).", valueName: "file"), completion: .file())
    public var file: String

    /// Emit JSON instead of text.
    @Flag(help: "Print JSON (the same shape as frames.json).")
    public var json = false

    /// The codec's limits.
    @OptionGroup(title: "Limits") var limits: LimitOptions<WholeFileDecodedHelp>

    /// Creates the command (argument parsing fills it in).
    public init() {}

    /// Runs the command.
    public func run() throws {
        let decoder = try InputFile.decoder(for: file, limits: limits.limits)
        if json {
            TerminalOutput.json(text: try Self.json(for: decoder.info))
        } else {
            TerminalOutput.line(Self.text(for: decoder.info, path: file))
        }
    }

    static func json(for info: AnimationInfo) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(AnimationMetadata(info)), as: UTF8.self)
    }

    static func text(for info: AnimationInfo, path: String) -> String {
        var lines = [
            "file:       \(path)",
            "format:     \(info.format)",
            "size:       \(info.fileSize) bytes",
            "canvas:     \(info.width)x\(info.height)",
            "frames:     \(info.frameCount)",
            "loop count: \(info.loopCount.map(String.init) ?? "none") (plays: \(info.plays == 0 ? "forever" : String(info.plays)))",
            "duration:   \(formatMilliseconds(info.totalDurationMilliseconds)) ms per play (stored delays)"
        ]
        // An image's delays as Messages shows them, where that differs (a GIF of 0 ms delays
        // plays for 100 ms a frame); a video's and a Lottie file's frames show for their own times.
        if info.isAnimated, !info.format.isTimedAsStored {
            let shown = info.frames.reduce(0) { $0 + FrameTimingPolicy.apple.displayMilliseconds(for: $1.delay) }
            if abs(shown - info.totalDurationMilliseconds) > 1e-6 {
                lines.append(
                    "shown:      \(formatMilliseconds(shown)) ms per play in Messages (a delay under 11 ms shows for 100 ms)"
                )
            }
        }
        if info.isAnimated, info.totalDurationMilliseconds > 0 {
            let rate = Double(info.frameCount) * 1000 / info.totalDurationMilliseconds
            lines.append("frame rate: \(formatMilliseconds(rate)) fps (frames / stored duration)")
        }
        for key in info.details.keys.sorted() { lines.append("\(key): \(info.details[key]!)") }
        if let color = info.colorChunks, !color.isEmpty {
            var parts: [String] = []
            if let gamma = color.gamma { parts.append("gAMA \(gamma)") }
            if color.chromaticities != nil { parts.append("cHRM") }
            if let intent = color.sRGBIntent { parts.append("sRGB intent \(intent)") }
            if let name = color.iccProfileName { parts.append("iCCP \"\(name)\"") }
            lines.append("colour chunks (reported, not applied): " + parts.joined(separator: ", "))
        }
        for warning in info.warnings { lines.append("warning: \(warning)") }
        lines.append("index  delay(ms)  rect                 dispose     blend")
        for frame in info.frames {
            lines.append(
                pad(String(frame.index), 5) + "  " + pad(formatMilliseconds(frame.delay.milliseconds), 9) + "  "
                    + pad(frame.rect.description, 19) + "  " + pad(frame.dispose.rawValue, 10) + "  "
                    + frame.blend.rawValue)
        }
        return lines.joined(separator: "\n")
    }

    private static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }
}

/// Milliseconds with at most three decimals and no trailing zeros.
func formatMilliseconds(_ value: Double) -> String {
    let rounded = (value * 1000).rounded() / 1000
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
}
