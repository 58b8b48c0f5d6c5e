/// What a file says about itself: format, canvas, timing and every frame's metadata.
public struct AnimationInfo: Sendable, Hashable {
    /// The sniffed container format.
    public var format: ImageFormat
    /// Canvas width in pixels.
    public var width: Int
    /// Canvas height in pixels.
    public var height: Int
    /// Every stored frame, in display order.
    public var frames: [FrameInfo]
    /// The loop count as stored (APNG `num_plays`; GIF NETSCAPE2.0 / ANIMEXTS1.0 count),
    /// 0 meaning forever; `nil` when the file stores none. WebM and Lottie store none and
    /// Telegram plays them forever: they read as 0.
    public var loopCount: Int?
    /// The size of the file in bytes.
    public var fileSize: Int
    /// Problems worked around while reading the structure.
    public var warnings: [CodecWarning]
    /// Format-specific details (PNG header and colour chunks, GIF version).
    public var details: [String: String]
    /// Colour chunks found in a PNG, reported but not applied.
    public var colorChunks: PNGColorChunks?

    /// How many times a browser plays the animation; 0 means forever.
    ///
    /// APNG `num_plays` is a total; a GIF loop count N > 0 means N repeats after the first
    /// play (N + 1 plays); a GIF without a loop extension plays once.
    public var plays: Int {
        switch format {
        case .apng, .webp, .webm, .lottie: return loopCount ?? 1
        case .gif:
            guard let loopCount else { return 1 }
            return loopCount == 0 ? 0 : loopCount + 1
        case .png, .jpeg: return 1
        }
    }

    /// The number of stored frames.
    public var frameCount: Int { frames.count }

    /// Whether more than one frame is shown.
    public var isAnimated: Bool { frames.count > 1 }

    /// The stored delays added up, in milliseconds (one play, no timing policy).
    public var totalDurationMilliseconds: Double {
        frames.reduce(0) { $0 + $1.delay.milliseconds }
    }
}

/// PNG colour-management chunks. StickerKit reports them and, like browsers decoding for an
/// sRGB display and like wuffs, image-png and swift-png, does not apply them.
public struct PNGColorChunks: Sendable, Hashable {
    /// `gAMA`: image gamma x 100,000.
    public var gamma: UInt32?
    /// `cHRM`: white point and primaries x 100,000 (wx, wy, rx, ry, gx, gy, bx, by).
    public var chromaticities: [UInt32]?
    /// `sRGB`: rendering intent (0-3).
    public var sRGBIntent: UInt8?
    /// `iCCP`: the profile's name.
    public var iccProfileName: String?

    /// Whether no colour chunk was present.
    public var isEmpty: Bool {
        gamma == nil && chromaticities == nil && sRGBIntent == nil && iccProfileName == nil
    }
}
