import StickerPack
import StickerPixels

/// A whole sticker browser on one clock, rendered at 1x and scaled to the terminal.
public final class BrowserPreviewSource: PreviewSource {
    private let renderer: BrowserRenderer
    private let resampler: Resampler
    private var cache: [[Int]: RGBAImage] = [:]
    private var cachedSize = (0, 0)
    /// The pixel rows shown: the whole view, or the rows that hold stickers.
    public let pixelHeight: Int

    /// Plays `renderer`'s browser (render it at scale 1: the terminal has fewer pixels). With
    /// `wholeView` false, only the rows that hold stickers are shown (down to the bottom inset
    /// below the last visible row), so a short pack fills the window instead of a mostly empty
    /// drawer. The browser is scaled to the terminal with `filter`.
    public init(renderer: BrowserRenderer, wholeView: Bool = true, filter: Resampler.Filter = .box) {
        self.renderer = renderer
        resampler = Resampler(filter: filter)
        let layout = renderer.layout
        if !wholeView, let lastRowBottom = layout.cells.map({ $0.pixels.y + $0.pixels.height }).max() {
            let inset = Int((BrowserLayout.verticalInset * Double(layout.scale)).rounded())
            pixelHeight = min(layout.pixelHeight, lastRowBottom + inset)
        } else {
            pixelHeight = layout.pixelHeight
        }
    }

    /// The browser's (at 1x) width in pixels.
    public var pixelWidth: Int { renderer.layout.pixelWidth }
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
        var browser = try renderer.snapshot(at: time)
        if pixelHeight < browser.height {
            browser = browser.cropped(to: PixelRect(x: 0, y: 0, width: browser.width, height: pixelHeight))
        }
        let image = resampler.resize(browser, width: width, height: height)
        // Distinct browser states can be many (stickers with unrelated loops): keep a bounded set.
        if cache.count > 512 { cache.removeAll() }
        cache[key] = image
        return image
    }
}
