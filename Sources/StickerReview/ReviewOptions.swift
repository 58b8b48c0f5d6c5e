import AnimationCodec
import StickerFit
import StickerPack
import StickerPixels
import StickerRenderer
import StickerTranscript

/// How `stickers review` draws and checks a pack.
public struct ReviewOptions: Sendable {
    /// The Messages view the browser and the conversation are drawn in (points).
    public var view: ViewSize = DevicePreset.default.viewSize
    /// Pixels a point for the browser and the conversation: 2 is sharp on most screens and
    /// a third of the bytes of 3.
    public var scale = 2
    /// The side, in pixels, of each sticker's animated preview (shown at half that in CSS pixels).
    public var previewSide = 240
    /// The side, in pixels, of a filmstrip frame.
    public var filmstripCell = 96
    /// The byte budget the `fit` dry run aims under.
    public var maxBytes = FitOptions.defaultMaxBytes
    /// libdeflate's level for the `fit` dry run: 12, as `stickers fit` writes, so the card
    /// shows the file fit makes; a lower level is sooner, and its search may choose otherwise.
    public var fitLevel: Int32 = 12
    /// Whether the `fit` dry run runs at all.
    public var dryRunFit = true
    /// Every image inlined as a data URL, so each page is one self-contained file.
    public var singleFile = false
    /// The photo the stickers are tried on; `nil` draws the built-in synthetic one.
    public var photo: RGBAImage?
    /// The conversation's fonts.
    public var fonts = TranscriptFonts()
    /// The codec's limits for every sticker.
    public var limits: DecodingLimits = .default
    /// Worker threads: the jobs of every pack share them.
    public var threads = AnimationDecoder.defaultThreadCount

    /// The defaults.
    public init() {}
}
