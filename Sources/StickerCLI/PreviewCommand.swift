import AnimationCodec
import ArgumentParser
import FoundationEssentials
import StickerPack
import StickerPixels
import StickerRenderer

/// `stickers preview`: play a sticker, or the whole browser, in a truecolor terminal.
public struct PreviewCommand: ParsableCommand {
    /// Command name and help.
    public static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Play a sticker (FILE) or the sticker browser (PACK, or several files) in the terminal.",
        discussion: """
            Upper half blocks, two pixels per cell, fitted to the window (re-fitted when it changes). Each frame is one synchronized update of only the cells that changed, on the alternate screen; the end of playback, Ctrl-C and SIGTERM restore the terminal. When standard output is not a terminal, one frame (--frame N, --at T, or the first) is written as ANSI text. A still image is printed in place.
            """)

    @Argument(
        help: ArgumentHelp(
            "An image file, a pack, or several image files (shown as a browser).", valueName: "file-or-pack"))
    var inputs: [String]

    @OptionGroup var browser: BrowserOptions

    @Option(help: ArgumentHelp("Colour mode: truecolor or 256 (default: from COLORTERM / TERM).", valueName: "mode"))
    var colors: TerminalColors?

    @Option(help: "Width in cells (default: the window's).")
    var width: Int?

    @Option(help: "Height in cells (default: the window's).")
    var height: Int?

    @Option(help: "Play this many loops, then stop.")
    var loops: Int?

    @Option(help: ArgumentHelp("Stop after this long, wall clock: 5s, 1500ms.", valueName: "time"))
    var duration: String?

    @Option(help: "Playback speed (2 = twice as fast).")
    var speed = 1.0

    @Option(help: "Not a terminal: write this frame.")
    var frame: Int?

    @Option(help: ArgumentHelp("Not a terminal: write the picture at this time: 1.25s.", valueName: "time"))
    var at: String?

    @Flag(help: "A pack: draw the whole Messages view (by default only the rows that hold stickers fill the window).")
    var wholeView = false

    @Flag(help: .hidden)
    var play = false

    /// Plays by a stepped clock: each frame drawn as soon as the one before, at the instants
    /// the wall clock would show them, so a test sees exactly which frames playback draws
    /// without depending on how promptly this process wakes.
    @Flag(help: .hidden)
    var steppedClock = false

    /// Creates the command (argument parsing fills it in).
    public init() {}

    /// Checks the options.
    public func validate() throws {
        guard !inputs.isEmpty else { throw ValidationError("Name an image file or a pack.") }
        if let width, width < 2 { throw ValidationError("--width must be at least 2 cells.") }
        if let height, height < 1 { throw ValidationError("--height must be at least 1 cell.") }
        if let loops, loops < 1 { throw ValidationError("--loops must be at least 1.") }
        if let duration, (DurationParsing.seconds(duration) ?? 0) <= 0 {
            throw ValidationError("--duration \(duration) is not a positive time.")
        }
        guard speed.isFinite, speed > 0, speed <= 1000 else {
            throw ValidationError("--speed must be a positive number.")
        }
        if let at, DurationParsing.seconds(at) == nil { throw ValidationError("--at \(at) is not a time.") }
        if at != nil && frame != nil { throw ValidationError("Give --at or --frame, not both.") }
        if let frame, frame < 0 { throw ValidationError("--frame must be 0 or more.") }
    }

    /// Runs the command.
    public func run() throws {
        let colors = self.colors ?? TerminalColors.detect(environment: ProcessInfo.processInfo.environment)
        let source = try makeSource()
        let terminal = StandardOutputTerminal()
        let interactive = play || StandardOutputTerminal.isTerminal
        let size = try cellBox(interactive: interactive, terminal: terminal)
        // Translucent pixels are drawn over the terminal's own background when it tells us
        // (OSC 11), else over black; with --background every pixel is already opaque.
        let backdrop =
            browser.background == nil && StandardOutputTerminal.isTerminal
            ? TerminalBackground.ask() ?? CellGrid.RGB(0, 0, 0) : CellGrid.RGB(0, 0, 0)
        let animated = source.loopDuration > 0 && source.endTime != 0
        if !interactive || !animated || frame != nil || at != nil {
            // One picture, as text: a pipe, a file, a still, or an explicit instant.
            let time = try instant(source)
            let fit = TerminalFit(
                width: source.pixelWidth, height: source.pixelHeight, columns: size.columns, rows: size.rows)
            let image: RGBAImage
            do { image = try source.image(at: time, width: fit.pixelWidth, height: fit.pixelHeight) } catch {
                throw CLIError(error.description)
            }
            terminal.write(ANSIWriter(colors: colors).text(CellGrid(image, backdrop: backdrop)))
            return
        }
        var limits = TerminalPlayer.Limits(loops: loops, speed: speed)
        limits.duration = duration.flatMap(DurationParsing.seconds)
        let clock: any PlaybackClock = steppedClock ? SteppedClock() : WallClock()
        let player = TerminalPlayer(
            source: source, terminal: terminal, colors: colors, limits: limits,
            size: width != nil || height != nil ? size : nil, backdrop: backdrop, clock: clock)
        let ending: TerminalPlayer.Ending
        do { (ending, _) = try player.play() } catch { throw CLIError(error.description) }
        switch ending {
        case .finished: return
        case .interrupted: throw ExitCode(130)
        case .terminated: throw ExitCode(143)
        }
    }

    /// A sticker for one file; the browser for a pack or several files.
    private func makeSource() throws -> PreviewSource {
        var isDirectory = false
        let single =
            inputs.count == 1 && FileManager.default.fileExists(atPath: inputs[0], isDirectory: &isDirectory)
            && !isDirectory
        let background = try browser.background.map { try BrowserOptions.background($0, limits: browser.limits.limits) }
        if single {
            let pack = try PackInput.load(inputs)
            do {
                let animation = try StickerAnimation.load(pack.stickers[0], limits: browser.limits.limits)
                return StickerPreviewSource(
                    animation: animation, timing: browser.timing,
                    background: background.flatMap { $0 == .transparent ? nil : $0 },
                    filter: browser.previewFilter)
            } catch {
                throw CLIError(error.description)
            }
        }
        let pack = try PackInput.load(inputs)
        var options = try browser.renderOptions(defaultBackground: "transparent")
        options.scale = 1  // a terminal has fewer pixels than a 1x browser
        options.filter = browser.previewFilter
        let renderer = BrowserRenderer(pack: pack, options: options)
        for problem in renderer.problems { warn("\(problem.sticker): \(problem.error)") }
        return BrowserPreviewSource(renderer: renderer, wholeView: wholeView, filter: browser.previewFilter)
    }

    /// The cells to draw in: --width/--height, else the window, else COLUMNS/LINES, else 80x24.
    private func cellBox(interactive: Bool, terminal: StandardOutputTerminal) throws -> (columns: Int, rows: Int) {
        let environment = ProcessInfo.processInfo.environment
        let window = interactive ? terminal.size() : nil
        let columns = width ?? window?.columns ?? environment["COLUMNS"].flatMap(Int.init) ?? 80
        let rows = height ?? window?.rows ?? environment["LINES"].flatMap(Int.init) ?? 24
        guard columns >= 2, rows >= 1 else { throw CLIError("the terminal is too small (\(columns)x\(rows) cells)") }
        return (columns, rows)
    }

    /// The instant a single picture shows: --at, the start of --frame N, or 0.
    private func instant(_ source: PreviewSource) throws -> Double {
        if let at { return DurationParsing.seconds(at) ?? 0 }
        guard let frame, frame > 0 else { return 0 }
        // Walk the change times: frame N of a sticker starts at the N-th change.
        var time = 0.0
        for _ in 0..<frame {
            guard let next = source.nextChange(after: time) else { break }
            time = next
        }
        return time
    }
}

extension TerminalColors: EnumArgument {}
