import StickerRenderer

/// Every number the transcript is drawn with, in points, in one place. docs/TRANSCRIPT-MODEL.md
/// gives each one's source and whether it was measured or inferred; most are theswerd/imessage-ui's
/// measurements of iOS 26 Messages on a 402 pt wide screen.
public enum MessagesMetrics {
    // Text bubbles.
    /// Body text size.
    public static let bodyFontSize = 17.0
    /// Body line pitch.
    public static let bodyLineHeight = 20.0
    /// Added to each body glyph's advance so Inter sets as wide as SF Pro Text: the measured
    /// "Ok" bubble (49.2 wide) holds 21.5 pt of text, Inter's "Ok" is 22.19 at 17 pt.
    public static let bodyTracking = -0.34
    /// Padding above and below the text.
    public static let bubblePaddingVertical = 10.0
    /// Padding left and right of the text.
    public static let bubblePaddingHorizontal = 13.85
    /// Corner radius (at most half the bubble's height).
    public static let bubbleCornerRadius = 20.0107
    /// The narrowest bubble.
    public static let bubbleMinimumWidth = 48.0
    /// The widest bubble as a fraction of the screen's width: 280.33 of 402 (measured 280.5 wide
    /// on a 402 pt screen; the ratio is the source's own, marked unverified there).
    public static let bubbleMaximumWidthRatio = 280.33 / 402
    /// From the screen edge to a bubble or sticker on that side.
    public static let edgeInset = 16.0
    /// Between messages of one run (same sender, one after another).
    public static let gapInRun = 4.3333
    /// Between runs.
    public static let gapBetweenRuns = 10.2

    // The tail: cubic segments relative to the body's bottom-right corner (x right, y down),
    // mirrored for a received bubble; it hangs below the body and takes no space.
    /// Where the straight right edge ends, above the bottom-right corner.
    public static let tailStart = SIMD2(0.0, -19.203)
    /// The tail's cubic segments, each (control 1, control 2, end).
    public static let tailCurves: [(SIMD2<Double>, SIMD2<Double>, SIMD2<Double>)] = [
        (SIMD2(-0.442, -13.682), SIMD2(-3.003, -8.238), SIMD2(-7.457, -4.870)),
        (SIMD2(-9.101, -3.553), SIMD2(-10.598, -1.750), SIMD2(-10.513, 0.463)),
        (SIMD2(-10.766, 2.710), SIMD2(-8.409, 4.088), SIMD2(-8.319, 6.130)),
        (SIMD2(-8.330, 6.550), SIMD2(-8.600, 6.750), SIMD2(-9.000, 6.698)),
        (SIMD2(-14.001, 6.333), SIMD2(-17.413, 1.539), SIMD2(-22.000, 0))
    ]
    /// How far the tail hangs below the body.
    public static let tailHang = 6.8

    // Labels.
    /// Date header and "Delivered" size.
    public static let labelFontSize = 11.0
    /// Date header line pitch.
    public static let labelLineHeight = 14.0
    /// From the date header's line box to the first message below it.
    public static let dateHeaderGap = 7.6
    /// "Delivered": its right edge in from the bubble's right edge.
    public static let deliveredInset = 20.3
    /// "Delivered": its ink top below the bubble.
    public static let deliveredGap = 8.08

    // The screen.
    /// Space above the first message and below the last (inferred: a transcript without the
    /// navigation bar and composer).
    public static let screenInset = 16.0

    // Stickers.
    /// A sticker sent alone is drawn at its pixels / 3 points, within these bounds.
    public static let stickerPoints: ClosedRange<Double> = 100...206

    // Template messages (inferred: Apple gives no sizes).
    /// The image is cropped by this much on the left and right (Apple: 6 points).
    public static let templateImageCrop = 6.0
    /// Image height over width, clamped as photo balloons are (16:9 to 3:4).
    public static let templateImageAspect: ClosedRange<Double> = 0.5625...(4.0 / 3)
    /// Caption size.
    public static let captionFontSize = 15.0
    /// Caption line pitch.
    public static let captionLineHeight = 19.0
    /// Caption bar padding (the text bubble's).
    public static let captionPadding = SIMD2(13.85, 8.0)
    /// Lines a caption may wrap to.
    public static let captionMaximumLines = 3
    /// Image title and subtitle size, white over the image's bottom left.
    public static let imageTitleFontSize = 17.0
    /// The app's icon in the caption bar, left of the captions (the icon set's 27 x 20 pt
    /// Messages slot).
    public static let templateIconSize = SIMD2(27.0, 20.0)
    /// Space between the icon and the captions.
    public static let templateIconGap = 8.0
    /// The caption bar's width shares when there are trailing captions: leading, trailing.
    public static let captionShares = (leading: 0.6, trailing: 0.4)
    /// Title and subtitle line pitch over a template message's image.
    public static let imageTitleLineHeight = 19.0
    /// A date header after the first message: its ink top below the message above, and the
    /// next message's top below its ink bottom.
    public static let dateHeaderInkGaps = (above: 11.33, below: 8.0)
    /// The size assumed for a sticker the layout is not told about (the regular size).
    public static let defaultStickerPixels = 408
}

/// The colours of one appearance.
public struct MessagesPalette: Sendable, Hashable {
    /// Screen background.
    public var background: SIMD3<UInt8>
    /// Received bubble.
    public var received: SIMD3<UInt8>
    /// Received text.
    public var receivedText: SIMD3<UInt8>
    /// Sent text (on blue or green).
    public var sentText: SIMD3<UInt8>
    /// iMessage blue from the screen's top to its bottom (a gradient fixed to the screen).
    public var iMessage: (top: SIMD3<UInt8>, bottom: SIMD3<UInt8>)
    /// SMS green from the screen's top to its bottom.
    public var sms: (top: SIMD3<UInt8>, bottom: SIMD3<UInt8>)
    /// Date header and "Delivered".
    public var secondaryText: SIMD3<UInt8>
    /// The caption bar of a template message.
    public var captionBar: SIMD3<UInt8>

    /// Light appearance.
    public static let light = MessagesPalette(
        background: SIMD3(255, 255, 255), received: SIMD3(0xE9, 0xE9, 0xEB), receivedText: SIMD3(0, 0, 0),
        sentText: SIMD3(255, 255, 255), iMessage: (SIMD3(0x77, 0xC7, 0xF5), SIMD3(0x36, 0x82, 0xF7)),
        sms: (SIMD3(0x53, 0xE6, 0x78), SIMD3(0x31, 0xC3, 0x55)), secondaryText: SIMD3(0x8A, 0x8A, 0x8E),
        captionBar: SIMD3(0xE9, 0xE9, 0xEB))

    /// Dark appearance.
    public static let dark = MessagesPalette(
        background: SIMD3(0, 0, 0), received: SIMD3(0x26, 0x26, 0x29), receivedText: SIMD3(255, 255, 255),
        sentText: SIMD3(255, 255, 255), iMessage: (SIMD3(0x58, 0x9A, 0xF7), SIMD3(0x3D, 0x8E, 0xF7)),
        sms: (SIMD3(0x53, 0xE6, 0x78), SIMD3(0x31, 0xC3, 0x55)), secondaryText: SIMD3(0x8D, 0x8D, 0x93),
        captionBar: SIMD3(0x26, 0x26, 0x29))

    /// The gradient's colour at `fraction` (0 top of the screen, 1 bottom).
    public static func mix(_ ramp: (top: SIMD3<UInt8>, bottom: SIMD3<UInt8>), at fraction: Double) -> SIMD3<UInt8> {
        let t = min(max(fraction, 0), 1)
        let top = SIMD3<Double>(ramp.top)
        let bottom = SIMD3<Double>(ramp.bottom)
        let mixed = top + (bottom - top) * t
        return SIMD3(UInt8(mixed.x.rounded()), UInt8(mixed.y.rounded()), UInt8(mixed.z.rounded()))
    }

    /// Equal when every colour is.
    public static func == (a: MessagesPalette, b: MessagesPalette) -> Bool {
        a.background == b.background && a.received == b.received && a.receivedText == b.receivedText
            && a.sentText == b.sentText
            && a.iMessage == b.iMessage && a.sms == b.sms && a.secondaryText == b.secondaryText
            && a.captionBar == b.captionBar
    }

    /// Hashes every colour.
    public func hash(into hasher: inout Hasher) {
        for colour in [
            background, received, receivedText, sentText, iMessage.top, iMessage.bottom, sms.top, sms.bottom,
            secondaryText, captionBar
        ] {
            hasher.combine(colour)
        }
    }
}
