import AnimationCodec
import ArgumentParser
import FoundationEssentials
import StickerPack
import StickerPixels
import StickerRenderer

/// `stickers sheet`: every sticker on every test background, side by side.
public struct SheetCommand: ParsableCommand {
    /// Command name and help.
    public static let configuration = CommandConfiguration(
        commandName: "sheet",
        abstract:
            "Put each sticker on every test background side by side (white, black, red, yellow, multicolor, light, dark, checker)."
    )

    @Argument(help: ArgumentHelp("A pack or image files.", valueName: "pack-or-file"), completion: .file())
    var inputs: [String]

    @Option(
        name: .customLong("background"),
        help: ArgumentHelp("An extra background column (a colour or a photo).", valueName: "background"))
    var extraBackgrounds: [String] = []

    @Option(help: "Sticker size (default: the pack's, as render takes it).")
    var size: StickerSize?

    @Option(help: "Output pixels per point: 1, 2 or 3.")
    var scale = 1

    @Option(parsing: .unconditional, help: ArgumentHelp("The instant to show: 1.25s, 1250ms.", valueName: "time"))
    var at: String = "0"

    @Option(name: .shortAndLong, help: ArgumentHelp("Output .png or .ppm.", valueName: "out"), completion: .file())
    var output: String

    /// The codec's limits.
    @OptionGroup(title: "Limits") var limits: LimitOptions<WholeFileDecodedHelp>

    /// Creates the command (argument parsing fills it in).
    public init() {}

    /// Checks the options.
    public func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("Name a pack or at least one image file.") }
        guard (1...3).contains(scale) else { throw ValidationError("--scale must be 1, 2 or 3.") }
        guard DurationParsing.seconds(at) != nil else { throw ValidationError("--at \(at) is not a time.") }
        guard let kind = SnapshotEncoder.Kind(path: output), kind != .apng else {
            throw ValidationError("The output must end in .png or .ppm.")
        }
        if let problem = extraBackgrounds.lazy.compactMap(BrowserOptions.backgroundProblem).first {
            throw ValidationError(problem)
        }
    }

    /// Runs the command.
    public func run() throws {
        // Its warnings and progress go to readers that may leave before the file is written.
        InterruptCleanup.outliveClosedPipes()
        LargeImageHeap.prepare()
        let pack = try PackInput.loadWarning(inputs)
        // The stickers' files and background images.
        try InputFile.checkOutput(
            output, isNoneOf: pack.stickers.flatMap(\.files) + extraBackgrounds.map(URL.init(fileURLWithPath:)))
        let backgrounds =
            Background.presets.map(\.background)
            + (try extraBackgrounds.map { try BrowserOptions.background($0, limits: limits.limits) })
        let sheet:
            (
                image: RGBAImage, problems: [(sticker: String, error: PackError)],
                repairs: [(sticker: String, warnings: [CodecWarning])]
            )
        do {
            sheet = try ContactSheets.backgrounds(
                pack, backgrounds: backgrounds, size: size, scale: scale,
                time: DurationParsing.seconds(at) ?? 0, limits: limits.limits)
        } catch {
            throw CLIError(error.description)
        }
        let bytes =
            SnapshotEncoder.Kind(path: output) == .ppm
            ? SnapshotEncoder.ppm(sheet.image) : SnapshotEncoder.png(sheet.image)
        do { try InterruptCleanup.writeAtomically(bytes, to: output) } catch { throw CLIError(error.description) }
        TerminalOutput.line(
            "\(output): \(sheet.image.width)x\(sheet.image.height) px, \(counted(pack.stickers.count, "sticker")) (rows) x \(counted(backgrounds.count, "background")) (columns: \(backgrounds.map(\.description).joined(separator: ", ")))"
        )
        for repair in sheet.repairs { warnRepaired(repair.sticker, repair.warnings) }
        warnNotTakenByMessages(pack.stickers, limits: limits.limits)
        try failForPlaceholders(sheet.problems)
    }
}
