import AnimationCodec
import Dispatch
import StickerPack
import StickerPixels

/// Renders a pack as the Messages sticker browser shows it: the layout, every visible
/// sticker scaled into its cell, on a background, at any instant or as an animation.
///
/// ```swift
/// let pack = try PackLoader.load(path: "Stickers.xcstickers")
/// var options = RenderOptions(); options.style = .expanded
/// let renderer = BrowserRenderer(pack: pack, options: options)
/// let still = try renderer.snapshot(at: 1.25)
/// ```
///
/// Not `Sendable`: its players keep caches of scaled frames that drawing changes without a lock,
/// so a renderer belongs to one thread at a time (it spreads its own work over workers inside).
public final class BrowserRenderer {
    /// The options rendered with.
    public let options: RenderOptions
    /// The layout.
    public let layout: BrowserLayout
    /// The size stickers are shown at.
    public let size: StickerSize
    /// Stickers that could not be drawn (shown as crossed-out placeholders), by name: those
    /// unreadable at load, and those with a frame that failed to decode, each drawn as the
    /// placeholder from that frame on (so far as snapshots have been taken).
    public var problems: [(sticker: String, error: PackError)] {
        loadProblems + players.compactMap { player in player.failure.map { (player.name, $0) } }
    }
    private let loadProblems: [(sticker: String, error: PackError)]
    /// Stickers drawn from files with something wrong that reading worked around (damage, a
    /// broken animation, layers not drawn), by name, with what the decoder noted.
    public let repairs: [(sticker: String, warnings: [CodecWarning])]
    private let players: [StickerPlayer]
    private let placeholders: [PixelRect]

    /// Lays out `pack` and reads the structure of every visible sticker (concurrently).
    public init(pack: StickerPack, options: RenderOptions) {
        self.options = options
        var animations = [Result<StickerAnimation, PackError>?](repeating: nil, count: pack.stickers.count)
        // The stickers read to guess the size are kept for the layout below.
        let size = options.size ?? BrowserRenderer.packSize(pack, limits: options.limits, keeping: &animations)
        self.size = size
        let layout = BrowserLayout(
            view: options.view, style: options.style, size: size, scale: options.scale,
            stickerCount: pack.stickers.count, compactHeight: options.compactHeight,
            showAll: options.showAll)
        self.layout = layout
        let visible = layout.cells.map(\.index)
        animations.withUnsafeMutableBufferPointer { slots in
            let slots = UncheckedSendable(slots)
            DispatchQueue.concurrentPerform(iterations: visible.count) { i in
                guard slots.value[visible[i]] == nil else { return }
                let sticker = pack.stickers[visible[i]]
                slots.value[visible[i]] = Result { () throws(PackError) in
                    try StickerAnimation.load(sticker, limits: options.limits)
                }
            }
        }
        var players: [StickerPlayer] = []
        var placeholders: [PixelRect] = []
        var problems: [(String, PackError)] = []
        var repairs: [(String, [CodecWarning])] = []
        let resampler = Resampler(filter: options.filter)
        var plannedCache = 0
        for cell in layout.cells {
            switch animations[cell.index]! {
            case .success(var animation):
                let warnings = animation.fileWarnings
                if !warnings.isEmpty { repairs.append((pack.stickers[cell.index].name, warnings)) }
                // A vector sticker keeps the place its own size gives it, and is drawn at the
                // pixels of that place instead of being resampled into it.
                let rect = layout.stickerRect(in: cell, stickerWidth: animation.width, height: animation.height)
                if animation.isVector, max(rect.width, rect.height) != max(animation.width, animation.height),
                    let drawn = try? animation.drawingVectors(atSide: max(rect.width, rect.height))
                {
                    animation = drawn
                }
                let bytes = animation.frameCount * rect.width * rect.height * 4
                let cacheAll = animation.isAnimated && plannedCache + bytes <= options.frameCacheBytes
                if cacheAll { plannedCache += bytes }
                players.append(
                    StickerPlayer(
                        index: cell.index, name: pack.stickers[cell.index].name, animation: animation, rect: rect,
                        timing: options.timing,
                        resampler: resampler, cacheAll: cacheAll))
            case .failure(let error):
                problems.append((pack.stickers[cell.index].name, error))
                placeholders.append(cell.pixels)
            }
        }
        self.players = players
        self.placeholders = placeholders
        self.loadProblems = problems
        self.repairs = repairs
    }

    /// The background with the placeholders of unreadable stickers: what every frame starts from.
    private func makeBase() -> RGBAImage {
        var base = options.background.canvas(width: layout.pixelWidth, height: layout.pixelHeight)
        for rect in placeholders { Placeholder.draw(in: &base, rect: rect) }
        return base
    }

    /// The browser at `time` seconds on the shared clock.
    public func snapshot(at time: Double) throws(PackError) -> RGBAImage {
        try compose { $0.clock.frameIndex(at: time) }
    }

    /// The browser with every sticker on its frame `index` (its last frame when it has fewer).
    public func snapshot(frame index: Int) throws(PackError) -> RGBAImage {
        try compose { $0.clampedFrame(index) }
    }

    /// The browser at `time` seconds as PNG file bytes (RGB on an opaque background): the
    /// pixels of ``snapshot(at:)``, composed row by row straight into the encoder, in parallel
    /// bands, without ever holding the whole canvas.
    public func snapshotPNG(at time: Double) throws(PackError) -> [UInt8] {
        try composePNG { $0.clock.frameIndex(at: time) }
    }

    /// ``snapshot(frame:)`` as PNG file bytes, composed as ``snapshotPNG(at:)`` is.
    public func snapshotPNG(frame index: Int) throws(PackError) -> [UInt8] {
        try composePNG { $0.clampedFrame(index) }
    }

    /// Each visible sticker's frame index at `time`, in cell order: equal vectors mean equal
    /// snapshots.
    public func frameIndices(at time: Double) -> [Int] {
        players.map { $0.clock.frameIndex(at: time) }
    }

    /// The first time after `time` at which any visible sticker changes frame; `nil` when
    /// none ever does again.
    public func nextChange(after time: Double) -> Double? {
        players.compactMap { $0.clock.nextChange(after: time) }.min()
    }

    /// When every visible sticker has finished its last play (`nil` when one loops forever,
    /// 0 when nothing animates).
    public var endTime: Double? {
        var latest = 0.0
        for player in players where player.clock.isAnimated {
            guard let end = player.clock.endTime else { return nil }
            latest = max(latest, end)
        }
        return latest
    }

    /// The longest single loop among the visible stickers, in seconds (0 when none animates).
    public var longestLoop: Double { players.longestLoop }

    /// The most frames an animated snapshot is made of.
    public static let maxAnimationFrames = 10_000

    /// The instants in `0..<duration` at which any visible sticker changes frame, sorted, with 0
    /// (at most `maxFrames`, the first ones).
    public func changeTimes(duration: Double, maxFrames: Int = maxAnimationFrames) -> [Double] {
        players.changeTimes(duration: duration, maxFrames: maxFrames)
    }

    /// Renders the browser at every change in `0..<duration` and hands each frame to `body`
    /// with its start time and display time. Only the cells that changed are redrawn.
    public func animate(
        duration: Double, maxFrames: Int = maxAnimationFrames,
        _ body: (_ image: RGBAImage, _ changed: PixelRect, _ start: Double, _ length: Double) throws -> Void
    ) throws {
        let times = changeTimes(duration: duration, maxFrames: maxFrames)
        let base = makeBase()
        var canvas = base
        var shown = [Int](repeating: -1, count: players.count)
        for (n, time) in times.enumerated() {
            let end = n + 1 < times.count ? times[n + 1] : max(duration, time + 0.001)
            let wanted = players.map { $0.clock.frameIndex(at: time) }
            var changed = PixelRect(x: 0, y: 0, width: 0, height: 0)
            let images = try scaledImages { i in wanted[i] != shown[i] ? wanted[i] : nil }
            for (i, player) in players.enumerated() {
                guard let image = images[i] else { continue }
                canvas.copy(player.rect, from: base)
                canvas.draw(image, atX: player.rect.x, y: player.rect.y)
                changed = changed.union(player.rect.clipped(toWidth: canvas.width, height: canvas.height))
                shown[i] = wanted[i]
            }
            if n == 0 { changed = PixelRect(x: 0, y: 0, width: canvas.width, height: canvas.height) }
            try body(canvas, changed, time, end - time)
        }
    }

    /// The snapshot whose sticker frames `frameIndex` names, as rows to draw: the one
    /// definition of a snapshot, which both the canvas and the PNG are drawn from.
    private func snapshotRows(_ frameIndex: (StickerPlayer) -> Int) throws(PackError) -> SnapshotRows {
        let images = try scaledFrames(frameIndex)
        let stickers = players.indices.compactMap { i in
            images[i].map { ($0, x: players[i].rect.x, y: players[i].rect.y) }
        }
        return SnapshotRows(
            width: layout.pixelWidth, height: layout.pixelHeight, background: options.background,
            baseImage: placeholders.isEmpty ? nil : makeBase(), stickers: stickers)
    }

    private func compose(_ frameIndex: (StickerPlayer) -> Int) throws(PackError) -> RGBAImage {
        let rows = try snapshotRows(frameIndex)
        let rowBytes = rows.width * 4
        let pixels = [UInt8](unsafeUninitializedCapacity: rowBytes * rows.height) { buffer, count in
            // Safe: row y is rowBytes bytes at y * rowBytes, inside the buffer; draw writes all of it.
            for y in 0..<rows.height { rows.draw(row: y, into: buffer.baseAddress! + y * rowBytes) }
            count = rowBytes * rows.height
        }
        return RGBAImage(width: rows.width, height: rows.height, pixels: pixels)
    }

    private func composePNG(_ frameIndex: (StickerPlayer) -> Int) throws(PackError) -> [UInt8] {
        let rows = try snapshotRows(frameIndex)
        return PNGEncoder.encodeFast(
            width: rows.width, height: rows.height, opaque: options.background.isOpaque,
            repeatsRowAbove: { rows.repeatsRowAbove($0) }, drawRow: { rows.draw(row: $0, into: $1) })
    }

    /// Every player's scaled frame `frameIndex` names, decoded concurrently.
    private func scaledFrames(_ frameIndex: (StickerPlayer) -> Int) throws(PackError) -> [RGBAImage?] {
        let wanted = players.map(frameIndex)
        return try scaledImages { wanted[$0] }
    }

    /// Each player's scaled frame (where `which` names one), decoded concurrently.
    private func scaledImages(_ which: (Int) -> Int?) throws(PackError) -> [RGBAImage?] {
        // Largest stickers first, so the workers finish together.
        let jobs = players.indices.compactMap { i in which(i).map { (i, $0) } }
            .sorted { self.players[$0.0].sourcePixels > self.players[$1.0].sourcePixels }
        var images = [RGBAImage?](repeating: nil, count: players.count)
        let players = self.players
        let run: @Sendable (UncheckedSendable<UnsafeMutableBufferPointer<RGBAImage?>>, (Int, Int)) -> Void = {
            slots, job in
            slots.value[job.0] = players[job.0].image(forFrame: job.1)
        }
        images.withUnsafeMutableBufferPointer { buffer in
            let slots = UncheckedSendable(buffer)
            if options.threads <= 1 || jobs.count <= 1 {
                for job in jobs { run(slots, job) }
            } else {
                DispatchQueue.concurrentPerform(iterations: jobs.count) { run(slots, jobs[$0]) }
            }
        }
        return images
    }

    /// The size to show a pack at: ``StickerPack/gridSize(sides:)`` of its readable stickers,
    /// as `validate` and `fit` take it.
    public static func packSize(_ pack: StickerPack, limits: DecodingLimits) -> StickerSize {
        var discarded = [Result<StickerAnimation, PackError>?](repeating: nil, count: pack.stickers.count)
        return packSize(pack, limits: limits, keeping: &discarded)
    }

    /// ``packSize(_:limits:)``, recording each sticker it reads in `loaded` (by index).
    private static func packSize(
        _ pack: StickerPack, limits: DecodingLimits,
        keeping loaded: inout [Result<StickerAnimation, PackError>?]
    ) -> StickerSize {
        guard pack.sizeComesFromStickers else { return pack.gridSize(sides: []) }
        for (index, sticker) in pack.stickers.enumerated() {
            loaded[index] = Result { () throws(PackError) in try StickerAnimation.load(sticker, limits: limits) }
        }
        return pack.gridSize(sides: StickerPack.rasterSides(loaded.map { try? $0?.get() }))
    }
}
