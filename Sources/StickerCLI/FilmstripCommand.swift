import AnimationCodec
import ArgumentParser
import FoundationEssentials
import StickerPack
import StickerPixels
import StickerRenderer

/// `stickers filmstrip`: one sticker's frames in a grid, labelled with their start times.
public struct FilmstripCommand: ParsableCommand {
    /// Command name and help.
    public static let configuration = CommandConfiguration(
        commandName: "filmstrip",
        abstract:
            "Lay out one sticker's frames as a contact sheet, each labelled #index and start time (ms), and list the times."
    )

    @Argument(help: ArgumentHelp("An image file, or a pack with --sticker.", valueName: "file"), completion: .file())
    var input: String

    @Option(
        help: ArgumentHelp(
            "In a pack, the sticker to show: its name, or its file's name where two share one (a.gif beside a.png); letter case aside when only one matches.",
            valueName: "name"))
    var sticker: String?

    @Option(help: "Frames per row.")
    var columns = 8

    @Option(help: "Frame cell side in pixels.")
    var cell = 204

    @Option(help: "How stored delays become display times: raw, browser or apple.")
    var timing: FrameTimingPolicy = .apple

    @Option(name: .shortAndLong, help: ArgumentHelp("Output .png or .ppm.", valueName: "out"), completion: .file())
    var output: String

    /// The codec's limits.
    @OptionGroup(title: "Limits") var limits: LimitOptions<WholeFileDecodedHelp>

    /// Creates the command (argument parsing fills it in).
    public init() {}

    /// Checks the options.
    public func validate() throws {
        guard (1...64).contains(columns) else { throw ValidationError("--columns must be 1-64.") }
        guard (16...1024).contains(cell) else { throw ValidationError("--cell must be 16-1024 pixels.") }
        guard let kind = SnapshotEncoder.Kind(path: output), kind != .apng else {
            throw ValidationError("The output must end in .png or .ppm.")
        }
    }

    /// Runs the command.
    public func run() throws {
        // Its warnings and progress go to readers that may leave before the file is written.
        InterruptCleanup.outliveClosedPipes()
        LargeImageHeap.prepare()
        let pack = try PackInput.loadWarning([input])
        try InputFile.checkOutput(output, isNoneOf: pack.stickers.flatMap(\.files))
        let chosen: Sticker
        if let sticker {
            // The name as written, else its file's (a.gif), else either in any letter case.
            switch pack.lookup(sticker) {
            case .sticker(let index): chosen = pack.stickers[index]
            case .ambiguous(let found):
                throw CLIError(
                    "\(input): \(found.count) stickers are named \(sticker): choose one with --sticker "
                        + found.map(pack.reference(of:)).joined(separator: " or "))
            case .none:
                throw CLIError(
                    "\(input): no sticker named \(sticker) (\(pack.references.joined(separator: ", ")))"
                )
            }
        } else {
            guard pack.stickers.count == 1 else {
                throw ValidationError("\(input): \(pack.stickers.count) stickers; choose one with --sticker")
            }
            chosen = pack.stickers[0]
        }
        let strip: (image: RGBAImage, frames: [ContactSheets.FilmstripFrame])
        do {
            // A vector sticker is drawn at the cell's size.
            let animation = try StickerAnimation.load(chosen, limits: limits.limits, vectorSide: cell)
            warnRepaired(chosen.name, animation.fileWarnings)
            strip = try ContactSheets.filmstrip(
                animation, columns: columns, cell: cell, timing: timing, maxPixels: limits.limits.maxPixels)
        } catch {
            throw CLIError("\(error)")
        }
        let bytes =
            SnapshotEncoder.Kind(path: output) == .ppm
            ? SnapshotEncoder.ppm(strip.image) : SnapshotEncoder.png(strip.image)
        do { try InterruptCleanup.writeAtomically(bytes, to: output) } catch { throw CLIError(error.description) }
        TerminalOutput.line(
            "\(output): \(strip.image.width)x\(strip.image.height) px, \(counted(strip.frames.count, "frame")) of \(chosen.name) (\(timing) timing)"
        )
        // A still has no timing: its one frame is shown as it is.
        if strip.frames.count == 1 { TerminalOutput.line("  #0  a still") }
        for frame in strip.frames where strip.frames.count > 1 {
            TerminalOutput.line(
                "  #\(frame.index)  start \(Int((frame.start * 1000).rounded())) ms  shows \(Int((frame.duration * 1000).rounded())) ms"
            )
        }
        warnNotTakenByMessages([chosen], limits: limits.limits)
    }
}
