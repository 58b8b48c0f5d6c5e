import AnimationCodec
import ArgumentParser
import FoundationEssentials
import StickerPack
import StickerRenderer

/// `stickers render`: the sticker browser as Messages lays it out, as a PNG, PPM or APNG.
public struct RenderCommand: ParsableCommand {
    /// Command name and help.
    public static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Draw the sticker browser (compact or expanded) at an instant, or animated, as PNG, PPM or APNG.",
        discussion: """
            Every visible sticker plays its own loop from t = 0 on one shared clock and rests on its last frame after its last play. The output is written atomically. Exit status 1 when a sticker could not be read (it is drawn as a crossed-out placeholder and named on stderr).
            """)

    @Argument(
        help: ArgumentHelp(
            "A pack (folder of images, .xcstickers catalog, .stickerpack) or image files.", valueName: "pack-or-file"),
        completion: .file())
    var inputs: [String]

    @OptionGroup var browser: BrowserOptions

    @Option(
        parsing: .unconditional, help: ArgumentHelp("The instant to draw: 1.25s, 1250ms or seconds.", valueName: "time")
    )
    var at: String?

    @Option(parsing: .unconditional, help: "Draw every sticker on its frame N (its last frame when it has fewer).")
    var frame: Int?

    @Flag(help: "Write an animated APNG of the browser (implied by a .apng output).")
    var animate = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Animated output length: 3s, 2500ms (default: the longest sticker loop, whole, so a shorter loop restarts where it stands when the APNG repeats; 1s when nothing moves).",
            valueName: "time")
    )
    var duration: String?

    @Option(
        name: .shortAndLong, help: ArgumentHelp("Output file: .png, .ppm or .apng.", valueName: "out"),
        completion: .file())
    var output: String

    @OptionGroup var progress: ProgressOptions

    /// Creates the command (argument parsing fills it in).
    public init() {}

    /// Checks the option combinations.
    public func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("Name a pack or at least one image file.") }
        guard let kind = SnapshotEncoder.Kind(path: output) else {
            throw ValidationError("The output must end in .png, .ppm or .apng.")
        }
        if at != nil && frame != nil { throw ValidationError("Give --at or --frame, not both.") }
        if let at, DurationParsing.seconds(at) == nil {
            throw ValidationError("--at \(at) is not a time (1.25s, 1250ms).")
        }
        if let duration, (DurationParsing.seconds(duration) ?? 0) <= 0 {
            throw ValidationError("--duration \(duration) is not a positive time (3s, 2500ms).")
        }
        if let frame, frame < 0 { throw ValidationError("--frame must be 0 or more.") }
        if kind == .apng && (at != nil || frame != nil) {
            throw ValidationError("An animated .apng output takes --duration, not --at or --frame.")
        }
        if animate && kind != .apng { throw ValidationError("--animate writes an APNG: name the output .apng.") }
        if duration != nil && kind != .apng { throw ValidationError("--duration applies to an animated .apng output.") }
    }

    /// Runs the command.
    public func run() throws {
        // Its warnings and progress go to readers that may leave before the file is written.
        InterruptCleanup.outliveClosedPipes()
        LargeImageHeap.prepare()
        let pack = try PackInput.loadWarning(inputs)
        // The stickers' files and a background image.
        try InputFile.checkOutput(
            output,
            isNoneOf: pack.stickers.flatMap(\.files)
                + [browser.background].compactMap { $0 }.map(URL.init(fileURLWithPath:)))
        let options = try browser.renderOptions()
        let renderer = BrowserRenderer(pack: pack, options: options)
        do {
            try ImageTooLarge.check(
                "the browser", width: renderer.layout.pixelWidth, height: renderer.layout.pixelHeight,
                limit: options.limits.maxPixels)
        } catch {
            throw CLIError(error.description)
        }
        let kind = SnapshotEncoder.Kind(path: output)!
        let bytes: [UInt8]
        var summary = ""
        switch kind {
        case .apng:
            let seconds =
                animationSeconds(duration, longestLoop: renderer.longestLoop)
            let frames = try animationFrameCount(seconds: seconds) {
                renderer.changeTimes(duration: seconds, maxFrames: $0)
            }
            let bar = progress.bar("rendering")
            defer { bar.finish() }
            bytes = try SnapshotEncoder.apng(renderer, duration: seconds) { bar.update($0, of: $1) }
            summary = ", \(counted(frames, "frame")) over \(seconds) s"
        case .png, .ppm:
            do {
                let time = at.flatMap(DurationParsing.seconds) ?? 0
                switch (kind, frame) {
                case (.png, let frame?): bytes = try renderer.snapshotPNG(frame: frame)
                case (.png, nil): bytes = try renderer.snapshotPNG(at: time)
                case (_, let frame?): bytes = SnapshotEncoder.ppm(try renderer.snapshot(frame: frame))
                case (_, nil): bytes = SnapshotEncoder.ppm(try renderer.snapshot(at: time))
                }
            } catch {
                throw CLIError(error.description)
            }
        }
        do {
            try InterruptCleanup.writeAtomically(bytes, to: output)
        } catch {
            throw CLIError(error.description)
        }
        let layout = renderer.layout
        TerminalOutput.line(
            "\(output): \(layout.pixelWidth)x\(layout.pixelHeight) px, \(layout.style) \(renderer.size) on \(layout.view) @\(layout.scale)x, "
                + "\(counted(layout.columns, "column")) of \(trim(layout.cellSide)) pt, \(layout.cells.count) of \(counted(pack.stickers.count, "sticker")) visible\(summary)"
        )
        for repair in renderer.repairs { warnRepaired(repair.sticker, repair.warnings) }
        warnNotTakenByMessages(pack.stickers, limits: options.limits)
        try failForPlaceholders(renderer.problems)
    }
}

func trim(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(cFormat: "%.1f", value)
}
