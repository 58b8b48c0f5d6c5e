import StickerPack

/// A whole sticker browser on one clock, rendered at 1x and scaled to the terminal.
public final class BrowserPreviewSource: PreviewSource {
    private let renderer: BrowserRenderer
    private var cache: [[Int]: RGBAImage] = [:]
    private var cachedSize = (0, 0)

    /// Plays `renderer`'s browser (render it at scale 1: the terminal has fewer pixels).
    public init(renderer: BrowserRenderer) {
        self.renderer = renderer
    }

    /// The browser's (at 1x) width in pixels.
    public var pixelWidth: Int { renderer.layout.pixelWidth }
    /// The browser's (at 1x) height in pixels.
    public var pixelHeight: Int { renderer.layout.pixelHeight }
    /// One loop, in seconds (0 for a still).
    public var loopDuration: Double { renderer.longestLoop }
    /// When the last play ends (`nil`: forever).
    public var endTime: Double? { renderer.endTime }
    /// The next time the picture changes.
    public func nextChange(after time: Double) -> Double? { renderer.nextChange(after: time) }

    /// The picture at `time`, scaled to `width` x `height` (cached per frame).
    public func image(at time: Double, width: Int, height: Int) throws(PackError) -> RGBAImage {
        if cachedSize != (width, height) {
            cache = [:]
            cachedSize = (width, height)
        }
        let key = renderer.frameIndices(at: time)
        if let cached = cache[key] { return cached }
        let image = Resampler().resize(try renderer.snapshot(at: time), width: width, height: height)
        // Distinct browser states can be many (stickers with unrelated loops): keep a bounded set.
        if cache.count > 512 { cache.removeAll() }
        cache[key] = image
        return image
    }
}
