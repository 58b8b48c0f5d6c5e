import FoundationEssentials
import StickerPack
import StickerPixels

/// Where a picture goes in a terminal that shows pixels: its size (the picture's own when it
/// fits the box, else scaled down keeping its aspect ratio; never enlarged unless asked) and
/// the cell its top-left corner is in, centred.
public struct GraphicsPlacement: Sendable, Hashable {
    /// The picture's size in pixels as drawn.
    public var pixelWidth: Int, pixelHeight: Int
    /// The top-left cell, 1-based.
    public var column: Int, row: Int

    /// Places a `width` x `height` picture in `columns` x `rows` cells of `cell` pixels.
    public init(
        width: Int, height: Int, columns: Int, rows: Int, cell: (width: Int, height: Int), enlarge: Bool = false
    ) {
        let boxWidth = max(1, columns * cell.width)
        let boxHeight = max(1, rows * cell.height)
        var scale = min(Double(boxWidth) / Double(width), Double(boxHeight) / Double(height))
        if !enlarge { scale = min(1, scale) }
        pixelWidth = max(1, min(boxWidth, Int((Double(width) * scale).rounded())))
        pixelHeight = max(1, min(boxHeight, Int((Double(height) * scale).rounded())))
        let usedColumns = (pixelWidth + cell.width - 1) / cell.width
        let usedRows = (pixelHeight + cell.height - 1) / cell.height
        column = max(0, columns - usedColumns) / 2 + 1
        row = max(0, rows - usedRows) / 2 + 1
    }
}

/// The frames of one loop of a ``PreviewSource`` at one size, with their durations: what a
/// terminal that plays animations itself is sent (at most ``maxFrames``).
package enum LoopFrames {
    /// The most frames sampled from a loop (a browser of stickers with unrelated loops).
    package static let maxFrames = 1000

    /// Every picture of the first loop (one for a still), each with the time it shows.
    package static func sample(_ source: PreviewSource, width: Int, height: Int) throws(PackError)
        -> [KittyGraphics.Frame]
    {
        let loop = source.loopDuration
        guard loop > 0 else {
            return [KittyGraphics.Frame(image: try source.image(at: 0, width: width, height: height), duration: 0)]
        }
        var times = [0.0]
        while times.count < maxFrames, let next = source.nextChange(after: times[times.count - 1]), next < loop - 1e-9 {
            times.append(next)
        }
        var frames: [KittyGraphics.Frame] = []
        for (index, time) in times.enumerated() {
            let end = index + 1 < times.count ? times[index + 1] : loop
            frames.append(
                KittyGraphics.Frame(
                    image: try source.image(at: time, width: width, height: height), duration: end - time))
        }
        return frames
    }
}

/// Plays a ``PreviewSource`` with a terminal graphics protocol: kitty and iTerm2 are sent the
/// whole loop once and play it themselves (the player only waits for the end, a signal or a
/// resize); sixel frames, and kitty pictures where the terminal plays no animations, are drawn
/// by our clock, as the half blocks are. The alternate screen is used, and the end, Ctrl-C and
/// SIGTERM delete the images and restore the terminal.
public final class GraphicsPlayer {
    private let source: PreviewSource
    private let terminal: TerminalDevice
    private let mode: GraphicsMode
    private let limits: TerminalPlayer.Limits
    private let fixedSize: (columns: Int, rows: Int)?
    private let cell: (width: Int, height: Int)
    private let backdrop: CellGrid.RGB
    private let clock: PlaybackClock
    private let tmux: Bool
    private let kittyAnimation: Bool
    private let events = PlayerEvents()
    /// The image number kitty stores the animation under.
    static let imageID: UInt32 = 0x5_71C4

    /// A player drawing with `mode` (kitty, iterm2 or sixel) in cells of `cell` pixels;
    /// `tmux` wraps kitty's and iTerm2's escapes for tmux's passthrough; without
    /// `kittyAnimation` (a terminal that shows kitty's stills but plays no animation), kitty
    /// pictures are stored once each and shown in turn.
    public init(
        source: PreviewSource, terminal: TerminalDevice, mode: GraphicsMode, limits: TerminalPlayer.Limits,
        size: (columns: Int, rows: Int)? = nil, cell: (width: Int, height: Int), backdrop: CellGrid.RGB,
        clock: PlaybackClock = WallClock(), tmux: Bool = false, kittyAnimation: Bool = true
    ) {
        self.source = source
        self.terminal = terminal
        self.mode = mode
        self.limits = limits
        self.fixedSize = size
        self.cell = cell
        self.backdrop = backdrop
        self.clock = clock
        self.tmux = tmux
        self.kittyAnimation = kittyAnimation
    }

    /// Plays until the source ends, a limit is reached or a signal arrives, then restores the
    /// terminal.
    public func play() throws(TerminalPlayer.Failure) -> (TerminalPlayer.Ending, TerminalPlayer.Statistics) {
        var statistics = TerminalPlayer.Statistics()
        let signals = events.install()
        defer { signals.remove() }
        terminal.write(ANSIWriter.Control.enter)
        let playsItself = mode == .iterm2 || (mode == .kitty && kittyAnimation)
        var pictures = KittyPictures(firstID: Self.imageID + 1)
        defer {
            if mode == .kitty {
                send(wrap(KittyGraphics.delete(id: Self.imageID) + pictures.deleteAll()), &statistics)
            }
            terminal.write(ANSIWriter.Control.leave)
        }
        let ends = [limits.loops.map { source.loopDuration * Double($0) }, source.endTime].compactMap { $0 }
        let playEnd = ends.min()
        var placement: GraphicsPlacement?
        var uploaded = false
        var lastFrameTime: Double?
        var lastSixel: RGBAImage?
        var lastFrameIndex: Int?
        var sixelCache = SixelCache()
        while true {
            if events.take(.interrupt) { return (.interrupted, statistics) }
            if events.take(.terminate) { return (.terminated, statistics) }
            if events.take(.resize) || placement == nil {
                let size = fixedSize ?? terminal.size() ?? (columns: 0, rows: 0)
                guard size.columns >= 2, size.rows >= 1 else {
                    throw .terminalTooSmall(columns: size.columns, rows: size.rows)
                }
                // A sixel image moves the cursor below itself: its last row stays free, so
                // drawing never scrolls the screen.
                let fitted = GraphicsPlacement(
                    width: source.pixelWidth, height: source.pixelHeight, columns: size.columns,
                    rows: mode == .sixel ? max(1, size.rows - 1) : size.rows, cell: cell)
                if fitted != placement {
                    if uploaded && mode == .kitty { send(wrap(KittyGraphics.delete(id: Self.imageID)), &statistics) }
                    if mode == .kitty { send(wrap(pictures.deleteAll()), &statistics) }
                    terminal.write(ANSIWriter.Control.clear)
                    placement = fitted
                    uploaded = false
                    lastFrameTime = nil
                    lastSixel = nil
                    lastFrameIndex = nil
                    sixelCache = SixelCache()
                }
            }
            let now = clock.elapsed()
            if let duration = limits.duration, now >= duration { return (.finished, statistics) }
            let media = now * limits.speed
            if let playEnd, media >= playEnd - 1e-6 { return (.finished, statistics) }
            let place = placement!
            let cursor = "\u{1B}[\(place.row);\(place.column)H"
            if playsItself {
                if !uploaded {
                    let frames: [KittyGraphics.Frame]
                    do {
                        frames = try LoopFrames.sample(source, width: place.pixelWidth, height: place.pixelHeight)
                    } catch {
                        throw .sticker(error)
                    }
                    let loops = limits.loops ?? source.loopsPlayed
                    if mode == .kitty {
                        send(
                            cursor
                                + wrap(
                                    KittyGraphics.animation(frames, id: Self.imageID, loops: loops, speed: limits.speed)
                                ),
                            &statistics)
                    } else {
                        let file = ITerm2Image.file(frames, loops: loops, speed: limits.speed, backdrop: backdrop.tuple)
                        send(
                            cursor
                                + wrap(
                                    ITerm2Image.show(
                                        file, name: "sticker", width: place.pixelWidth, height: place.pixelHeight)),
                            &statistics)
                    }
                    statistics.frames += frames.count
                    uploaded = true
                }
                // The terminal plays it: wait for the end, a limit or a signal.
                var wake = playEnd.map { $0 / limits.speed }
                if let duration = limits.duration { wake = min(wake ?? duration, duration) }
                clock.wait(until: wake ?? .infinity, wake: events.semaphore)
            } else {
                let shownAt = frameStart(media)
                if lastFrameTime != shownAt {
                    let image: RGBAImage
                    do {
                        image = try source.image(at: media, width: place.pixelWidth, height: place.pixelHeight)
                    } catch {
                        throw .sticker(error)
                    }
                    // A sticker's pictures are its frames: the pair of frame numbers names an update.
                    let frameIndex = (source as? StickerPreviewSource)?.frameIndex(at: media)
                    let frames = frameIndex.map { [lastFrameIndex ?? -1, $0] }
                    lastFrameIndex = frameIndex
                    if mode == .kitty {
                        let shown = pictures.show(image, frame: frameIndex)
                        if !shown.isEmpty {
                            send(cursor + wrap(shown), &statistics)
                            statistics.frames += 1
                        }
                    } else if let update = sixelCache.update(
                        from: lastSixel, to: image, frames: frames, cellHeight: cell.height, backdrop: backdrop)
                    {
                        let row = place.row + update.firstRow
                        send(
                            ANSIWriter.Control.beginFrame + "\u{1B}[\(row);\(place.column)H" + update.sixel
                                + ANSIWriter.Control.endFrame, &statistics)
                        statistics.frames += 1
                    }
                    lastSixel = image
                    lastFrameTime = shownAt
                }
                var wakeMedia = source.nextChange(after: media)
                if let playEnd { wakeMedia = min(wakeMedia ?? playEnd, playEnd) }
                var wakeWall = wakeMedia.map { $0 / limits.speed }
                if let duration = limits.duration { wakeWall = min(wakeWall ?? duration, duration) }
                clock.wait(until: wakeWall ?? .infinity, wake: events.semaphore)
            }
        }
    }

    /// The start of the frame shown at `media`: the last change at or before it.
    private func frameStart(_ media: Double) -> Double {
        guard source.loopDuration > 0 else { return 0 }
        let loop = source.loopDuration
        let loopStart = (media / loop).rounded(.down) * loop
        var start = loopStart
        while let next = source.nextChange(after: start), next <= media + 1e-9, next > start { start = next }
        return start
    }

    private func wrap(_ sequence: String) -> String {
        tmux && !sequence.isEmpty ? TerminalGraphics.tmuxPassthrough(sequence) : sequence
    }

    private func send(_ text: String, _ statistics: inout TerminalPlayer.Statistics) {
        terminal.write(text)
        statistics.bytes += text.utf8.count
    }
}

/// One sixel frame over the one before: only the cell rows from the first that changed to the
/// last changed pixel row, and pixels that were shown but are transparent now painted in the
/// terminal's background (unpainted sixel pixels keep what was drawn before).
struct SixelUpdate {
    /// The first cell row drawn, from the picture's top.
    var firstRow: Int
    /// The escape sequence.
    var sixel: String

    /// Nil when nothing changed.
    init?(from previous: RGBAImage?, to image: RGBAImage, cellHeight: Int, backdrop: CellGrid.RGB) {
        guard let previous, previous.width == image.width, previous.height == image.height else {
            firstRow = 0
            sixel = SixelEncoder.encode(IndexedImage(image, over: backdrop.tuple, palette: SixelEncoder.palette))
            return
        }
        guard let changed = KittyGraphics.changedRect(from: previous, to: image) else { return nil }
        firstRow = changed.y / cellHeight
        let top = firstRow * cellHeight
        var part = image.cropped(
            to: PixelRect(x: 0, y: top, width: image.width, height: changed.y + changed.height - top))
        let fill = 0xFF00_0000 | UInt32(backdrop.b) << 16 | UInt32(backdrop.g) << 8 | UInt32(backdrop.r)
        previous.pixels.withUnsafeBytes { oldRaw in
            part.pixels.withUnsafeMutableBytes { newRaw in
                let old = oldRaw.bindMemory(to: UInt32.self)
                let new = newRaw.bindMemory(to: UInt32.self)
                for i in new.indices where new[i] >> 24 == 0 && old[top * image.width + i] >> 24 != 0 { new[i] = fill }
            }
        }
        sixel = SixelEncoder.encode(IndexedImage(part, over: backdrop.tuple, palette: SixelEncoder.palette))
    }
}

/// The sixel updates already made, by the frames (a sticker's frame numbers) or the pictures
/// (a browser's: their hashes, then a comparison) before and after: a loop played again costs
/// a lookup, not an encoding.
struct SixelCache {
    private var byFrames: [[Int]: SixelUpdate?] = [:]
    private var entries: [Int: [(previous: [UInt8]?, image: [UInt8], update: SixelUpdate?)]] = [:]
    private var storedBytes = 0
    /// The most pixel bytes kept for comparison (a browser's pictures need not repeat).
    static let capacity = 64 << 20

    mutating func update(
        from previous: RGBAImage?, to image: RGBAImage, frames: [Int]?, cellHeight: Int, backdrop: CellGrid.RGB
    ) -> SixelUpdate? {
        if let frames {
            if let hit = byFrames[frames] { return hit }
            let update = SixelUpdate(from: previous, to: image, cellHeight: cellHeight, backdrop: backdrop)
            byFrames[frames] = update
            return update
        }
        var hasher = Hasher()
        hasher.combine(previous?.pixels)
        hasher.combine(image.pixels)
        let key = hasher.finalize()
        if let hit = entries[key]?.first(where: { $0.previous == previous?.pixels && $0.image == image.pixels }) {
            return hit.update
        }
        let update = SixelUpdate(from: previous, to: image, cellHeight: cellHeight, backdrop: backdrop)
        let bytes = (previous?.pixels.count ?? 0) + image.pixels.count
        if storedBytes + bytes <= Self.capacity {
            entries[key, default: []].append((previous?.pixels, image.pixels, update))
            storedBytes += bytes
        }
        return update
    }
}

extension CellGrid.RGB {
    /// The colour as a tuple of channels.
    var tuple: (red: UInt8, green: UInt8, blue: UInt8) { (r, g, b) }
}
