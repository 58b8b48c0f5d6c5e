/// Caps the decoder checks before it allocates anything, so a tiny hostile file cannot make
/// it allocate gigabytes. Callers can raise or lower each one.
public struct DecodingLimits: Sendable, Hashable {
    /// The largest canvas or frame side, in pixels. By default the formats' own maximum (PNG's
    /// 2^31 - 1; GIF's 16-bit fields stop at 65,535): a long thin image is valid, and memory
    /// is bounded by ``maxPixels`` and ``maxTotalDecodedBytes``.
    public var maxSide: Int
    /// The largest canvas area, in pixels.
    public var maxPixels: Int
    /// The most frames an animation may hold.
    public var maxFrames: Int
    /// The most bytes all composited frames may add up to (frames x width x height x 4).
    public var maxTotalDecodedBytes: Int
    /// The largest input file, in bytes (readers refuse larger files before reading them).
    public var maxFileBytes: Int

    /// PNG's largest side, 2^31 - 1 pixels.
    public static let formatMaxSide = Int(Int32.max)

    /// Defaults that fit any real sticker (and any sane animation) with a wide margin: sides
    /// up to the format's maximum, 64 Mpx a canvas, 10,000 frames, 4 GiB of decoded frames,
    /// 64 MiB files.
    public static let `default` = DecodingLimits(
        maxSide: formatMaxSide, maxPixels: 64 << 20, maxFrames: 10_000, maxTotalDecodedBytes: 4 << 30,
        maxFileBytes: 64 << 20)

    /// Creates limits; see the properties for what each bounds.
    public init(
        maxSide: Int, maxPixels: Int, maxFrames: Int, maxTotalDecodedBytes: Int,
        maxFileBytes: Int = DecodingLimits.default.maxFileBytes
    ) {
        self.maxSide = maxSide
        self.maxPixels = maxPixels
        self.maxFrames = maxFrames
        self.maxTotalDecodedBytes = maxTotalDecodedBytes
        self.maxFileBytes = maxFileBytes
    }

    /// These limits without ``maxTotalDecodedBytes``: for a caller that reads a file's
    /// structure only, or decodes a frame at a time and bounds what it keeps itself.
    public var withoutTotalDecodedBytes: DecodingLimits {
        var limits = self
        limits.maxTotalDecodedBytes = .max
        return limits
    }

    /// Throws unless a file of `count` bytes fits.
    func checkFile(bytes count: Int) throws(CodecError) {
        if count > maxFileBytes { throw .limitExceeded(.fileBytes(count, limit: maxFileBytes)) }
    }

    /// Throws unless a `width` x `height` image fits. An image whose bytes (4 a pixel) would
    /// not fit in an `Int` never does, whatever the limits, so sizes computed from a checked
    /// canvas cannot overflow.
    func checkCanvas(width: Int, height: Int) throws(CodecError) {
        if width > maxSide || height > maxSide {
            throw .limitExceeded(.side(width: width, height: height, limit: maxSide))
        }
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        if overflow || pixels > maxPixels || pixels > Int.max / 4 {
            throw .limitExceeded(.pixels(overflow ? Int.max : pixels, limit: min(maxPixels, Int.max / 4)))
        }
    }

    /// Throws unless `frames` frames of a `width` x `height` canvas fit.
    func checkAnimation(frames: Int, width: Int, height: Int) throws(CodecError) {
        if frames > maxFrames { throw .limitExceeded(.frames(frames, limit: maxFrames)) }
        let (pixels, pixelsOverflow) = width.multipliedReportingOverflow(by: height)
        let (bytes, overflow) =
            pixelsOverflow || pixels > Int.max / 4
            ? (0, true) : (pixels * 4).multipliedReportingOverflow(by: max(frames, 1))
        if overflow || bytes > maxTotalDecodedBytes {
            throw .limitExceeded(.decodedBytes(overflow ? Int.max : bytes, limit: maxTotalDecodedBytes))
        }
    }
}

/// Which of the ``DecodingLimits`` a file broke, and by how much.
public enum LimitViolation: Sendable, Equatable, CustomStringConvertible {
    /// A side longer than the limit.
    case side(width: Int, height: Int, limit: Int)
    /// More pixels than the limit.
    case pixels(Int, limit: Int)
    /// More frames than the limit.
    case frames(Int, limit: Int)
    /// More decoded bytes than the limit.
    case decodedBytes(Int, limit: Int)
    /// A larger input file than the limit.
    case fileBytes(Int, limit: Int)
    /// A compressed document (a `.tgs` file's gzip member) that inflates past the file limit.
    case inflatedBytes(limit: Int)

    /// A one-line description naming the limit and the `stickers` option that sets it.
    public var description: String {
        switch self {
        case .side(let w, let h, let limit):
            return "image is \(w)x\(h), larger than the \(limit)-pixel side limit (--max-side)"
        case .pixels(let count, let limit):
            return "image has \(count) pixels, more than the limit of \(limit) (--max-pixels)"
        case .frames(let count, let limit):
            return "animation has at least \(count) frames, more than the limit of \(limit) (--max-frames)"
        case .decodedBytes(let count, let limit):
            return "decoded frames would take at least \(count) bytes, more than the limit of \(limit) (--max-decoded)"
        case .fileBytes(let count, let limit):
            return "file is \(count) bytes, more than the limit of \(limit) (--max-file)"
        case .inflatedBytes(let limit):
            return "compressed document inflates to more than the limit of \(limit) bytes (--max-file)"
        }
    }
}
