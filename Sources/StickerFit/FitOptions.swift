import AnimationCodec
import StickerPack

/// What `stickers fit` aims for and what it may give up to get there.
public struct FitOptions: Sendable, Hashable {
    /// The size class to fit to; `nil` takes the pack's `grid-size`, else regular.
    public var size: StickerSize?
    /// Every file must be at most this many bytes (Apple: under 500 KB; ``defaultMaxBytes``).
    public var maxBytes: Int
    /// Whether a sticker that cannot fit otherwise may be made for a smaller size class.
    public var allowSmallerSize: Bool
    /// Whether lossy steps (palette, JPEG, frame rate) may be taken at all.
    public var allowLossy: Bool
    /// libdeflate's level for the files written (1-12; 12, the default, is its strongest).
    public var compressionLevel: Int32
    /// The lowest frame rate the frame-rate step may go down to; 0 (the default): as low as the
    /// best quality needs, down to two frames, with ``minimumPSNR`` as the floor.
    public var minimumFramesPerSecond: Double
    /// The quality floor: a lossy file under this PSNR (dB, against the scaled original at every
    /// frame's start time) is not made. 20 dB by default: an error of a tenth of full scale at
    /// each instant on average, where a clip has become a slide show or a poster of its colours;
    /// everything above it is made, with a warning under ``FitLoss/warningPSNR``.
    public var minimumPSNR: Double = FitOptions.defaultMinimumPSNR
    /// A second floor on the mean SSIM of the file (0-1); 0, the default, checks none.
    public var minimumSSIM: Double = 0
    /// Whether a sticker under the warning line (``FitLoss/warningPSNR``,
    /// ``FitLoss/warningSSIM``) is an error instead of a warning: the floors rise to that line.
    public var strict = false
    /// Keep only the first this many seconds of an animation (at its own speed); `nil`: all.
    public var maxDuration: Double?
    /// The highest frame rate made: a faster animation keeps one frame in every
    /// `rate / maximumFramesPerSecond`, each shown for the frames it stands for, so the loop
    /// keeps its length (never sped up); `nil`: the input's own rate.
    public var maximumFramesPerSecond: Double?
    /// Worker threads.
    public var threads: Int
    /// The codec's limits for reading the inputs.
    public var limits: DecodingLimits
    /// Whether reduced palettes are dithered (ordered, so a pixel that does not change keeps
    /// its colour from frame to frame): smoother gradients, usually a lower PSNR and more bytes.
    public var dither = false

    /// The default quality floor, 20 dB (see ``minimumPSNR``).
    public static let defaultMinimumPSNR = 20.0

    /// The most bytes a sticker file has by default: 499,999, under Apple's 500 KB however a KB
    /// is counted (500,000 bytes is not under 500 KB of a thousand bytes, and `validate` warns
    /// from there).
    public static let defaultMaxBytes = 499_999

    /// The PSNR a lossy file must reach: ``minimumPSNR``, raised to the warning line when ``strict``.
    public var psnrFloor: Double { strict ? max(minimumPSNR, FitLoss.warningPSNR) : minimumPSNR }
    /// The SSIM a lossy file must reach: ``minimumSSIM``, raised to the warning line when ``strict``.
    public var ssimFloor: Double { strict ? max(minimumSSIM, FitLoss.warningSSIM) : minimumSSIM }

    /// Whether a file of `fidelity` is good enough to make (an exact one always is).
    func meetsFloor(_ fidelity: Fidelity) -> Bool {
        guard let psnr = fidelity.psnr else { return true }
        return psnr >= psnrFloor && (fidelity.ssim ?? 1) >= ssimFloor
    }

    /// The most bytes one sticker's decoded frames may take while it is fitted (1 GiB: 700
    /// frames of 618 px): fit keeps every frame in memory in a few copies (decoded, scaled,
    /// reduced), so ``limits`` should not allow more.
    public static let maxDecodedBytes = 1 << 30

    /// Creates options; the defaults are Apple's limits and every step allowed but a smaller size.
    public init(
        size: StickerSize? = nil, maxBytes: Int = FitOptions.defaultMaxBytes, allowSmallerSize: Bool = false,
        allowLossy: Bool = true,
        compressionLevel: Int32 = 12, minimumFramesPerSecond: Double = 0,
        threads: Int = AnimationDecoder.defaultThreadCount,
        limits: DecodingLimits = .default
    ) {
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
