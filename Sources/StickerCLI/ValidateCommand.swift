import AnimationCodec
import ArgumentParser
import FoundationEssentials
import StickerPack

/// `stickers validate`: a pack against Apple's sticker rules.
public struct ValidateCommand: ParsableCommand {
    /// Command name and help.
    public static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Check a pack against Apple's sticker rules and the animation lints; exit 1 on any error.")

    @Argument(
        help: ArgumentHelp(
            "A pack (folder of images, .xcstickers catalog, .stickerpack) or image files.", valueName: "pack-or-file"),
        completion: .file())
    var inputs: [String]

    @Flag(help: "Print the report as JSON.")
    var json = false

    /// The codec's limits.
    @OptionGroup(title: "Limits") var limits: LimitOptions<WholeFileDecodedHelp>

    /// Creates the command (argument parsing fills it in).
    public init() {}

    /// Runs the command.
    public func run() throws {
        guard !inputs.isEmpty else { throw ValidationError("Name a pack or at least one image file.") }
        let pack: StickerPack
        do {
            pack = try PackInput.load(inputs)
        } catch {
            // A CI job reading the JSON gets a report all the same: failed, the reason its one finding.
            if json {
                try printJSON(.unreadable(pack: inputs.joined(separator: " "), reason: "\(error)"))
            }
            throw error
        }
        let report = PackValidator(limits: limits.limits).validate(pack)
        if json {
            try printJSON(report)
        } else {
            TerminalOutput.line(Self.text(report))
        }
        if !report.passed { throw ExitCode.failure }
    }

    private func printJSON(_ report: ValidationReport) throws {
        try TerminalOutput.json(report)
    }

    static func text(_ report: ValidationReport) -> String {
        var lines = [
            "pack \(TerminalText.oneLine(report.pack)): \(counted(report.stickers.count, "sticker")), grid-size \(report.gridSize)\(report.gridSizeDeclared ? "" : " (not declared)")"
        ]
        for sticker in report.stickers {
            var parts = [sticker.format ?? "unreadable", "\(sticker.fileBytes) bytes"]
            if let w = sticker.width, let h = sticker.height {
                // A vector's document is drawn at the pack's size.
                let isVector = sticker.format.flatMap(ImageFormat.init(rawValue:))?.isVector ?? false
                parts.append(isVector ? "drawn at \(w)x\(h)" : "\(w)x\(h)")
            }
            if let frames = sticker.frameCount, frames > 1 {
                parts.append("\(frames) frames")
                if let loop = sticker.loopMilliseconds {
                    let shown = sticker.shownLoopMilliseconds ?? loop
                    parts.append(
                        shown == loop
                            ? "\(Int(loop.rounded())) ms loop"
                            : "\(Int(shown.rounded())) ms loop as Messages shows it (\(Int(loop.rounded())) ms stored)")
                }
                if let plays = sticker.plays {
                    parts.append(plays == 0 ? "loops forever" : plays == 1 ? "plays once" : "\(plays) plays")
                }
            }
            if let bytes = sticker.decodedBytes { parts.append("\(bytes / 1024) KiB decoded") }
            lines.append("  \(TerminalText.oneLine(sticker.name)): " + parts.joined(separator: ", "))
        }
        // Each finding one line: a path it names cannot start a line of its own.
        for finding in report.findings { lines.append(TerminalText.oneLine(finding.description)) }
        lines.append(
            report.passed
                ? "passed: \(counted(report.warningCount, "warning"))"
                : "FAILED: \(counted(report.errorCount, "error")), \(counted(report.warningCount, "warning"))")
        return lines.joined(separator: "\n")
    }
}
