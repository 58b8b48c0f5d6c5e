import StickerPack
import StickerRenderer

/// The text styles a transcript is set in, opened once for one scale.
public final class TranscriptStyles {
    /// Bubble text.
    public let body: TextStyle
    /// The date header.
    public let label: TextStyle
    /// "Delivered".
    public let labelBold: TextStyle
    /// Captions in a template message's bar.
    public let caption: TextStyle
    /// Image titles over a template message's image.
    public let imageTitle: TextStyle

    /// Opens `fonts` at every size the transcript uses, for drawing at `scale`.
    public init(fonts: TranscriptFonts, scale: Double) throws(TextError) {
        typealias M = MessagesMetrics
        body = try TextStyle(
            fonts: fonts, size: M.bodyFontSize, scale: scale, tracking: M.bodyTracking, lineHeight: M.bodyLineHeight)
        label = try TextStyle(fonts: fonts, size: M.labelFontSize, scale: scale, lineHeight: M.labelLineHeight)
        labelBold = try TextStyle(
            fonts: fonts, weight: .semibold, size: M.labelFontSize, scale: scale, lineHeight: M.labelLineHeight)
        caption = try TextStyle(fonts: fonts, size: M.captionFontSize, scale: scale, lineHeight: M.captionLineHeight)
        imageTitle = try TextStyle(
            fonts: fonts, weight: .semibold, size: M.imageTitleFontSize, scale: scale,
            lineHeight: M.imageTitleLineHeight)
    }
}
