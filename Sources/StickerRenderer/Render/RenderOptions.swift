import AnimationCodec
import StickerPack
import StickerPixels

/// Everything that decides what a browser snapshot looks like.
public struct RenderOptions: Sendable {
    /// The Messages view, in points.
    public var view: ViewSize = DevicePreset.default.viewSize
    /// Compact strip or expanded view.
    public var style: BrowserStyle = .compact
    /// The sticker size; `nil` uses the pack's (``StickerPack/gridSize(sides:)``: the declared
    /// grid-size; else regular for a catalog; else the size whose side every sticker is,
    /// regular when they do not agree).
    public var size: StickerSize?
    /// Output pixels per point: 1, 2 or 3.
    public var scale = 3
    /// What the browser is drawn on.
    public var background: Background = Background(named: "light")!
    /// The compact strip's height.
    public var compactHeight: CompactHeight = .default
    /// Expanded style only: grow the canvas until every sticker shows.
    public var showAll = false
    /// How stored delays become display times (Messages plays through ImageIO: `apple`).
    public var timing: FrameTimingPolicy = .apple
    /// The downscaling filter.
    public var filter: Resampler.Filter = .lanczos3
    /// Codec limits for every sticker file.
    public var limits: DecodingLimits = .default
    /// Worker threads for decoding stickers concurrently.
    public var threads = AnimationDecoder.defaultThreadCount
    /// Scaled frames kept in memory across all stickers, in bytes; past it, frames are
    /// decoded again when a sticker loops.
    public var frameCacheBytes = 256 << 20

    /// The defaults: iPhone 15, compact, 3x, Messages light.
    public init() {}
}
