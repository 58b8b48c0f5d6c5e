import Dispatch
import FoundationEssentials
import StickerPack
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Plays a ``PreviewSource`` in a terminal: alternate screen, hidden cursor, each frame a
/// synchronized update of only the cells that changed, re-fitted when the window changes,
/// and the terminal restored on the end, on Ctrl-C and on SIGTERM.
public final class TerminalPlayer {
    /// When playback stops.
    public struct Limits: Sendable {
        /// A hard wall-clock bound in seconds.
        public var duration: Double?
        /// Loops of the source to play (its longest loop, for a browser).
        public var loops: Int?
        /// Playback speed (2 = twice as fast).
        public var speed = 1.0
        /// Creates limits; none by default (play until the source ends or Ctrl-C).
        public init(duration: Double? = nil, loops: Int? = nil, speed: Double = 1.0) {
            self.duration = duration
            self.loops = loops
            self.speed = speed
        }
    }

    /// What ended playback.
    public enum Ending: Sendable, Equatable {
        /// The source finished, or the loop or duration limit was reached.
        case finished
        /// SIGINT (Ctrl-C).
        case interrupted
        /// SIGTERM.
        case terminated
    }

    /// Why playback could not go on.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The window is smaller than 2 x 1 cells.
        case terminalTooSmall(columns: Int, rows: Int)
        /// A frame could not be decoded.
        case sticker(PackError)

        /// One line for a person.
        public var description: String {
            switch self {
            case .terminalTooSmall(let columns, let rows):
                return "the terminal is too small (\(columns)x\(rows) cells; at least 2x1 needed)"
            case .sticker(let error): return error.description
            }
        }
    }

    /// What playback did: frames drawn and bytes written.
    public struct Statistics: Sendable {
        /// Frames written (including redraws after a resize).
        public var frames = 0
        /// Bytes written, escape sequences included.
        public var bytes = 0
    }

    private let source: PreviewSource
    private let terminal: TerminalDevice
    private let writer: ANSIWriter
    private let limits: Limits
    private let fixedSize: (columns: Int, rows: Int)?
    private let clock: PlaybackClock
    private let backdrop: CellGrid.RGB
    private let events = PlayerEvents()

    /// A player for `source` on `terminal`; `size` overrides the window size (cells);
    /// translucent pixels show over `backdrop` (the terminal's background, when known); `clock`
    /// is the time it plays by (the wall clock, unless a test steps it).
    public init(
        source: PreviewSource, terminal: TerminalDevice, colors: TerminalColors, limits: Limits,
        size: (columns: Int, rows: Int)? = nil, backdrop: CellGrid.RGB = CellGrid.RGB(0, 0, 0),
        clock: PlaybackClock = WallClock()
    ) {
        self.clock = clock
        self.backdrop = backdrop
        self.source = source
        self.terminal = terminal
        self.writer = ANSIWriter(colors: colors, tolerance: ANSIWriter.playbackTolerance)
        self.limits = limits
        self.fixedSize = size
    }

    /// Plays until the source ends, a limit is reached or a signal arrives, then restores the
    /// terminal. Throws for a sticker that fails to decode or a window too small to draw in
    /// (the terminal is restored first).
    public func play() throws(Failure) -> (Ending, Statistics) {
        var statistics = Statistics()
        let signals = events.install()
        defer { signals.remove() }
        terminal.write(ANSIWriter.Control.enter)
        defer { terminal.write(ANSIWriter.Control.leave) }

        func elapsed() -> Double { clock.elapsed() }
        // Media time runs at `speed` x wall time; playback ends at the earlier of the source's
        // end (its last play) and the requested loops.
        let ends = [limits.loops.map { source.loopDuration * Double($0) }, source.endTime].compactMap { $0 }
        let playEnd = ends.min()
        var fit: TerminalFit?
        var previous: CellGrid?
        while true {
            if events.take(.interrupt) { return (.interrupted, statistics) }
            if events.take(.terminate) { return (.terminated, statistics) }
            if events.take(.resize) || fit == nil {
                let size = fixedSize ?? terminal.size() ?? (columns: 0, rows: 0)
                guard size.columns >= 2, size.rows >= 1 else {
                    throw .terminalTooSmall(columns: size.columns, rows: size.rows)
                }
                let newFit = TerminalFit(
                    width: source.pixelWidth, height: source.pixelHeight, columns: size.columns, rows: size.rows)
                if newFit != fit {
                    terminal.write(ANSIWriter.Control.clear)
                    previous = nil
                    fit = newFit
                }
            }
            let now = elapsed()
            if let duration = limits.duration, now >= duration { return (.finished, statistics) }
            let media = now * limits.speed
            // A microsecond's slack: loops x loop length is rarely exact in binary (3 x 0.1 is
            // 0.30000000000000004), and the frame at the end would otherwise flash once more.
            if let playEnd, media >= playEnd - 1e-6 { return (.finished, statistics) }

            let grid: CellGrid
            do {
                grid = CellGrid(
                    try source.image(at: media, width: fit!.pixelWidth, height: fit!.pixelHeight), backdrop: backdrop,
                    faintAlpha: UInt8(ANSIWriter.playbackTolerance))
            } catch {
                throw .sticker(error)
            }
            let (update, displayed) = writer.update(
                from: previous, to: grid, originColumn: fit!.column, originRow: fit!.row)
            if !update.isEmpty {
                let frame = ANSIWriter.Control.beginFrame + update + ANSIWriter.Control.endFrame
                terminal.write(frame)
                statistics.frames += 1
                statistics.bytes += frame.utf8.count
            }
            previous = displayed

            var wakeMedia = source.nextChange(after: media)
            if let playEnd { wakeMedia = min(wakeMedia ?? playEnd, playEnd) }
            var wakeWall = wakeMedia.map { $0 / limits.speed }
            if let duration = limits.duration { wakeWall = min(wakeWall ?? duration, duration) }
            // Nothing will change and nothing bounds playback: hold the picture until a signal.
            clock.wait(until: wakeWall ?? .infinity, wake: events.semaphore)
        }
    }
}

/// The signals the player reacts to, delivered through Dispatch and read between frames.
final class PlayerEvents: Sendable {
    enum Event: Hashable { case interrupt, terminate, resize }
    private let raised = Mutex<Set<Event>>([])
    /// Signalled for every event, so a waiting player wakes.
    let semaphore = DispatchSemaphore(value: 0)
    private let queue = DispatchQueue(label: "stickers.preview.signals")

    /// Routes SIGINT, SIGTERM and SIGWINCH to this object until the returned route is removed.
    func install() -> SignalRoute {
        SignalRoute(
            [(SIGINT, Event.interrupt), (SIGTERM, .terminate), (SIGWINCH, .resize)].map { number, event in
                (number, { [weak self] in self?.raise(event) })
            },
            queue: queue)
    }

    func raise(_ event: Event) {
        _ = raised.withLock { $0.insert(event) }
        semaphore.signal()
    }

    /// Whether `event` was raised, clearing it.
    func take(_ event: Event) -> Bool {
        raised.withLock { $0.remove(event) != nil }
    }

    /// Whether any event waits.
    var pending: Bool {
        raised.withLock { !$0.isEmpty }
    }
}
