import AnimationCodec
import StickerPack

/// What `stickers fit` aims for and what it may give up to get there.
public struct FitOptions: Sendable, Hashable {
    /// The size class to fit to; `nil` takes the pack's `grid-size`, else regular.
    public var size: StickerSize?
    /// Every file must be at most this many bytes (Apple: under 500 KB; 500,000 is under the
    /// limit however a KB is counted).
    public var maxBytes: Int
    /// Whether a sticker that cannot fit otherwise may be made for a smaller size class.
    public var allowSmallerSize: Bool
    /// Whether lossy steps (palette, JPEG, frame rate) may be taken at all.
    public var allowLossy: Bool
    /// libdeflate's level for the files written (1-12; 12, the default, is its strongest).
    public var compressionLevel: Int32
    /// The lowest frame rate the frame-rate step may go down to.
    public var minimumFramesPerSecond: Double
    /// Worker threads.
    public var threads: Int
    /// The codec's limits for reading the inputs.
    public var limits: DecodingLimits
    /// Whether reduced palettes are dithered (ordered, so a pixel that does not change keeps
    /// its colour from frame to frame): smoother gradients, usually a lower PSNR and more bytes.
    public var dither = false

    /// The most bytes one sticker's decoded frames may take while it is fitted (1 GiB: 700
    /// frames of 618 px): fit keeps every frame in memory in a few copies (decoded, scaled,
    /// reduced), so ``limits`` should not allow more.
    public static let maxDecodedBytes = 1 << 30

    /// Creates options; the defaults are Apple's limits and every step allowed but a smaller size.
    public init(size: StickerSize? = nil, maxBytes: Int = 500_000, allowSmallerSize: Bool = false, allowLossy: Bool = true,
                compressionLevel: Int32 = 12, minimumFramesPerSecond: Double = 10, threads: Int = AnimationDecoder.defaultThreadCount,
                limits: DecodingLimits = .default) {
        self.size = size
        self.maxBytes = maxBytes
        self.allowSmallerSize = allowSmallerSize
        self.allowLossy = allowLossy
        self.compressionLevel = compressionLevel
        self.minimumFramesPerSecond = minimumFramesPerSecond
        self.threads = threads
        self.limits = limits
    }
}
