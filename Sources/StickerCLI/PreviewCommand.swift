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
            --graphics auto asks the terminal (kitty's graphics query and whether it plays kitty animations, the window's size in pixels and the device attributes, in one round trip) and draws with kitty's graphics protocol, iTerm2's inline images (TERM_PROGRAM iTerm.app or WezTerm) or sixels, else with half blocks; inside tmux, kitty's and iTerm2's escapes go through tmux's passthrough. With a protocol the sticker shows at its own pixel size when it fits the window (scaled down when it does not, never up), cells of 10 x 20 pixels assumed where the terminal tells no pixel size; kitty and iTerm2 are sent the loop once and play it themselves (a kitty-protocol terminal that plays no animations, as Konsole, is sent each frame once and shown them in turn by our clock; --graphics kitty asks that too), sixel frames are drawn by our clock. Half blocks: two pixels per cell, fitted to the window (re-fitted when it changes), each frame one synchronized update of only the cells that changed. On the alternate screen; the end of playback, Ctrl-C and SIGTERM delete the image and restore the terminal. When standard output is not a terminal, one frame (--frame N, --at T, or the first) is written as ANSI text, or with --graphics kitty or iterm2 the whole animation, with --graphics sixel that frame as a sixel image. A still image is printed in place.
            """)

    @Argument(
        help: ArgumentHelp(
            "An image file, a pack, or several image files (shown as a browser).", valueName: "file-or-pack"),
        completion: .file())
    var inputs: [String]

    @OptionGroup var browser: BrowserOptions

    @Option(help: ArgumentHelp("Colour mode: truecolor or 256 (default: from COLORTERM / TERM).", valueName: "mode"))
    var colors: TerminalColors?

    @Option(
        help: ArgumentHelp(
            "How to draw: auto (ask the terminal), kitty, iterm2, sixel or blocks (half blocks).", valueName: "mode"))
    var graphics: GraphicsMode = .auto

    @Flag(help: "Ask the controlling terminal, print the graphics mode auto picks and the cell size, then exit.")
    var detect = false

    @Option(help: "Width in cells (default: the window's).")
    var width: Int?

    @Option(help: "Height in cells (default: the window's).")
    var height: Int?

    @Option(parsing: .unconditional, help: "Play this many loops, then stop.")
    var loops: Int?

    @Option(
        parsing: .unconditional, help: ArgumentHelp("Stop after this long, wall clock: 5s, 1500ms.", valueName: "time"))
    var duration: String?

    @Option(name: .customLong("speed"), parsing: .unconditional, help: "Playback speed (2 = twice as fast).")
    var speedNumber = DecimalNumber(1)

    /// `--speed`.
    var speed: Double { speedNumber.value }

    @Option(parsing: .unconditional, help: "Not a terminal: write this frame (the last one when it has fewer).")
    var frame: Int?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Not a terminal: write the picture at this time: 1.25s.", valueName: "time"))
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
        if let width, !(2...Self.maxCells).contains(width) {
            throw ValidationError("--width must be 2 to \(Self.maxCells) cells.")
        }
        if let height, !(1...Self.maxCells).contains(height) {
            throw ValidationError("--height must be 1 to \(Self.maxCells) cells.")
        }
        try OptionBounds.check(loops, in: OptionBounds.loops, "--loops")
        if let duration, (DurationParsing.seconds(duration) ?? 0) <= 0 {
            throw ValidationError("--duration \(duration) is not a positive time.")
        }
        try OptionBounds.check(speed.isNaN ? 0 : speed, in: OptionBounds.speed, "--speed")
        if let at, DurationParsing.seconds(at) == nil { throw ValidationError("--at \(at) is not a time.") }
        if at != nil && frame != nil { throw ValidationError("Give --at or --frame, not both.") }
        if let frame, !(0...Self.maxFrame).contains(frame) {
            throw ValidationError("--frame must be 0 to \(Self.maxFrame).")
        }
    }

    /// Runs the command.
    public func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let colors = self.colors ?? TerminalColors.detect(environment: environment)
        let terminal = StandardOutputTerminal()
        let interactive = play || StandardOutputTerminal.isTerminal
        // Only a terminal is asked (for --graphics kitty too: whether it plays animations);
        // into a pipe, auto is half blocks. --detect asks the controlling terminal wherever the
        // output goes, and waits longer.
        let capabilities =
            detect
            ? TerminalGraphics.ask(environment: environment, timeout: 5)
            : (graphics == .auto || graphics == .kitty) && StandardOutputTerminal.isTerminal
                ? TerminalGraphics.ask(environment: environment) : nil
        let mode =
            graphics != .auto
            ? graphics : (capabilities?.choice(environment: environment) ?? .blocks)
        if detect {
            TerminalOutput.line(detection(mode: mode, capabilities: capabilities))
            return
        }
        let (source, renderer) = try makeSource()
        // A sticker whose frame failed to decode while drawing is named once the drawing is
        // done (and the terminal restored), as those unreadable at load were before it.
        let namedAtLoad = renderer?.problems.count ?? 0
        defer {
            for problem in renderer?.problems.dropFirst(namedAtLoad) ?? [] {
                warn("\(problem.sticker): \(problem.error)")
            }
            if let failure = (source as? StickerPreviewSource)?.failure { warn("\(failure)") }
        }
        let size = try cellBox(interactive: interactive, terminal: terminal)
        if mode != .blocks {
            try drawGraphics(
                source, mode: mode, interactive: interactive, size: size, terminal: terminal,
                capabilities: capabilities, environment: environment)
            return
        }
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

    /// Whether a kitty-protocol terminal plays animations: as it answered, and yes where it was
    /// not asked or did not answer kitty's query (`--graphics kitty` is then taken at its word).
    private func plays(_ capabilities: TerminalCapabilities?) -> Bool {
        guard let capabilities, capabilities.kitty else { return true }
        return capabilities.kittyAnimation
    }

    /// `kitty (cell 9x18 px, from the terminal)`: what `--detect` prints.
    private func detection(mode: GraphicsMode, capabilities: TerminalCapabilities?) -> String {
        guard let capabilities else { return "\(mode.rawValue) (no terminal to ask)" }
        let window = TerminalGraphics.controllingWindow() ?? (80, 24, 0, 0)
        let cell =
            window.width > 0 && window.height > 0
            ? (width: window.width / window.columns, height: window.height / window.rows)
            : capabilities.windowPixels.map { (width: $0.width / window.columns, height: $0.height / window.rows) }
                ?? TerminalGraphics.assumedCell
        var said: [String] = []
        if capabilities.kitty {
            said.append("kitty graphics \(capabilities.kittyAnimation ? "with" : "without") animation")
        }
        if capabilities.sixel { said.append("sixel") }
        let answer =
            capabilities.answered
            ? (said.isEmpty ? "no graphics" : said.joined(separator: " and ")) : "no answer"
        return "\(mode.rawValue) (the terminal says: \(answer); cell \(cell.width)x\(cell.height) px)"
    }

    /// Draws with a graphics protocol: played in a terminal, or written once into a pipe (or
    /// for a still, or an explicit instant).
    private func drawGraphics(
        _ source: PreviewSource, mode: GraphicsMode, interactive: Bool, size: (columns: Int, rows: Int),
        terminal: StandardOutputTerminal, capabilities: TerminalCapabilities?, environment: [String: String]
    ) throws {
        let tmux = StandardOutputTerminal.isTerminal && !(environment["TMUX"] ?? "").isEmpty
        let backdrop =
            browser.background == nil && StandardOutputTerminal.isTerminal
            ? TerminalBackground.ask() ?? CellGrid.RGB(0, 0, 0) : CellGrid.RGB(0, 0, 0)
        let cell =
            StandardOutputTerminal.isTerminal
            ? TerminalGraphics.cellSize(
                columns: size.columns, rows: size.rows, windowPixels: capabilities?.windowPixels)
            : TerminalGraphics.assumedCell
        let animated = source.loopDuration > 0 && source.endTime != 0
        if interactive && animated && frame == nil && at == nil {
            var limits = TerminalPlayer.Limits(loops: loops, speed: speed)
            limits.duration = duration.flatMap(DurationParsing.seconds)
            let clock: any PlaybackClock = steppedClock ? SteppedClock() : WallClock()
            let player = GraphicsPlayer(
                source: source, terminal: terminal, mode: mode, limits: limits,
                size: width != nil || height != nil ? size : nil, cell: cell, backdrop: backdrop, clock: clock,
                tmux: tmux, kittyAnimation: plays(capabilities))
            let ending: TerminalPlayer.Ending
            do { (ending, _) = try player.play() } catch { throw CLIError(error.description) }
            switch ending {
            case .finished: return
            case .interrupted: throw ExitCode(130)
            case .terminated: throw ExitCode(143)
            }
        }
        // One picture (a still, an instant, a sixel into a pipe) or, for kitty and iTerm2 into a
        // pipe, the whole animation. Into a pipe the box is the picture's own size unless
        // --width or --height asks for cells.
        let boxed = StandardOutputTerminal.isTerminal || width != nil || height != nil
        let placement =
            boxed
            ? GraphicsPlacement(
                width: source.pixelWidth, height: source.pixelHeight, columns: size.columns, rows: size.rows, cell: cell
            )
            : GraphicsPlacement(
                width: source.pixelWidth, height: source.pixelHeight, columns: source.pixelWidth,
                rows: source.pixelHeight, cell: (1, 1))
        let (pixelWidth, pixelHeight) = (placement.pixelWidth, placement.pixelHeight)
        let wholeLoop = (mode == .kitty || mode == .iterm2) && frame == nil && at == nil
        var text: String
        do {
            if wholeLoop {
                let frames = try LoopFrames.sample(source, width: pixelWidth, height: pixelHeight)
                if mode == .kitty {
                    text = KittyGraphics.animation(frames, id: 1, loops: loops ?? source.loopsPlayed, speed: speed)
                } else {
                    let file = ITerm2Image.file(
                        frames, loops: loops ?? source.loopsPlayed, speed: speed,
                        backdrop: (backdrop.r, backdrop.g, backdrop.b))
                    text = ITerm2Image.show(file, name: "sticker", width: pixelWidth, height: pixelHeight)
                }
            } else {
                let image = try source.image(at: try instant(source), width: pixelWidth, height: pixelHeight)
                switch mode {
                case .kitty: text = KittyGraphics.still(image, id: 1)
                case .iterm2:
                    let png = PNGEncoder.encode(premultiplied: image.pixels, width: image.width, height: image.height)
                    text = ITerm2Image.show(png, name: "sticker", width: pixelWidth, height: pixelHeight)
                default:
                    text = SixelEncoder.encode(
                        IndexedImage(image, over: (backdrop.r, backdrop.g, backdrop.b), palette: SixelEncoder.palette))
                }
            }
        } catch {
            throw CLIError("\(error)")
        }
        if tmux && mode != .sixel { text = TerminalGraphics.tmuxPassthrough(text) }
        terminal.write(StandardOutputTerminal.isTerminal ? text + "\n" : text)
    }

    /// A sticker for one file; the browser for a pack or several files, with its renderer.
    private func makeSource() throws -> (PreviewSource, BrowserRenderer?) {
        var isDirectory = false
        let single =
            inputs.count == 1 && FileManager.default.fileExists(atPath: inputs[0], isDirectory: &isDirectory)
            && !isDirectory
        let background = try browser.background.map { try BrowserOptions.background($0, limits: browser.limits.limits) }
        if single {
            let pack = try PackInput.load(inputs)
            warnNotTakenByMessages(pack.stickers, limits: browser.limits.limits)
            do {
                // A vector document larger than the largest sticker is drawn at that size: a
                // terminal shows no more, and a 4096 px document's frames would not fit the limits.
                let largest = StickerSize.large.pixels
                var animation = try StickerAnimation.load(pack.stickers[0], limits: browser.limits.limits)
                if animation.isVector, max(animation.width, animation.height) > largest {
                    animation = try animation.drawingVectors(atSide: largest)
                }
                let source = StickerPreviewSource(
                    animation: animation, timing: browser.timing,
                    background: background.flatMap { $0 == .transparent ? nil : $0 },
                    filter: browser.previewFilter)
                return (source, nil)
            } catch {
                throw CLIError(error.description)
            }
        }
        let pack = try PackInput.loadWarning(inputs)
        var options = try browser.renderOptions(defaultBackground: "transparent")
        options.scale = 1  // a terminal has fewer pixels than a 1x browser
        options.filter = browser.previewFilter
        let renderer = BrowserRenderer(pack: pack, options: options)
        for problem in renderer.problems { warn("\(problem.sticker): \(problem.error)") }
        warnNotTakenByMessages(pack.stickers, limits: browser.limits.limits)
        return (BrowserPreviewSource(renderer: renderer, wholeView: wholeView, filter: browser.previewFilter), renderer)
    }

    /// The cells to draw in: --width/--height, else the window, else COLUMNS/LINES, else 80x24.
    private func cellBox(interactive: Bool, terminal: StandardOutputTerminal) throws -> (columns: Int, rows: Int) {
        let environment = ProcessInfo.processInfo.environment
        let window = interactive ? terminal.size() : nil
        let columns = width ?? window?.columns ?? environment["COLUMNS"].flatMap(Int.init) ?? 80
        let rows = height ?? window?.rows ?? environment["LINES"].flatMap(Int.init) ?? 24
        guard columns >= 2, rows >= 1 else { throw CLIError("the terminal is too small (\(columns)x\(rows) cells)") }
        guard columns <= Self.maxCells, rows <= Self.maxCells else {
            throw CLIError("the terminal is too large (\(columns)x\(rows) cells; at most \(Self.maxCells) a side)")
        }
        return (columns, rows)
    }

    /// The most cells a side the preview draws in (a window or COLUMNS/LINES past it is an
    /// error, not a picture of billions of cells).
    static let maxCells = 10_000
    /// The highest --frame: frame N is found by walking N changes of the clock, which a
    /// looping sticker never runs out of.
    static let maxFrame = 1_000_000

    /// The instant a single picture shows: --at, the start of --frame N, or 0.
    private func instant(_ source: PreviewSource) throws -> Double {
        if let at { return DurationParsing.seconds(at) ?? 0 }
        guard let frame, frame > 0 else { return 0 }
        // Walk the change times of the first loop: frame N starts at the N-th change, and a
        // number past the last frame is the last, as render takes it (not counted on round
        // the loop).
        var time = 0.0
        for _ in 0..<frame {
            guard let next = source.nextChange(after: time),
                source.loopDuration <= 0 || next < source.loopDuration - 1e-9
            else { break }
            time = next
        }
        return time
    }
}

extension TerminalColors: EnumArgument {}
extension GraphicsMode: EnumArgument {}
