/// Writes an APNG frame by frame, compressing each frame as it arrives, so memory holds the
/// compressed file and one frame, never every frame.
///
/// Each frame replaces a rectangle of the canvas (blend SOURCE, dispose NONE): pass only
/// the rectangle that changed since the previous frame and the file stays small. The first
/// frame must cover the whole canvas (it is also the default image).
public struct APNGWriter: Sendable {
    /// Canvas width.
    public let width: Int
    /// Canvas height.
    public let height: Int
    /// The frame count declared in acTL; ``finish()`` requires exactly this many frames.
    public let frameCount: Int
    private var out: [UInt8]
    private var sequence: UInt32 = 0
    private var written = 0

    /// Starts a file of `frameCount` frames played `plays` times (0 = forever).
    public init(width: Int, height: Int, frameCount: Int, plays: Int) {
        precondition(width > 0 && height > 0 && frameCount > 0)
        self.width = width
        self.height = height
        self.frameCount = frameCount
        out = PNGSignature.bytes
        PNGEncoder.appendChunk("IHDR", PNGEncoder.header(width: width, height: height), to: &out)
        PNGEncoder.appendChunk("acTL", PNGEncoder.bigEndian(UInt32(frameCount)) + PNGEncoder.bigEndian(UInt32(max(0, plays))), to: &out)
    }

    /// Appends a frame: `pixels` (premultiplied RGBA8, `width * height * 4` bytes) replace
    /// the canvas rectangle at (`x`, `y`) and the whole canvas shows for `delay`.
    public mutating func append(premultiplied pixels: [UInt8], x: Int, y: Int, width: Int, height: Int, delay: FrameDelay) {
        precondition(written < frameCount, "more frames than declared")
        precondition(width > 0 && height > 0 && pixels.count == width * height * 4)
        precondition(x >= 0 && y >= 0 && x + width <= self.width && y + height <= self.height, "frame outside the canvas")
        precondition(written > 0 || (x == 0 && y == 0 && width == self.width && height == self.height),
                     "the first frame covers the canvas")
        var control = PNGEncoder.bigEndian(sequence) + PNGEncoder.bigEndian(UInt32(width)) + PNGEncoder.bigEndian(UInt32(height))
        control += PNGEncoder.bigEndian(UInt32(x)) + PNGEncoder.bigEndian(UInt32(y))
        control += PNGEncoder.bigEndian16(UInt16(clamping: delay.numerator)) + PNGEncoder.bigEndian16(UInt16(clamping: delay.denominator))
        control += [0, 0]  // dispose NONE, blend SOURCE
        PNGEncoder.appendChunk("fcTL", control, to: &out)
        sequence += 1
        let data = PNGEncoder.compressedRows(pixels, width: width, height: height)
        if written == 0 {
            PNGEncoder.appendChunk("IDAT", data, to: &out)
        } else {
            PNGEncoder.appendChunk("fdAT", PNGEncoder.bigEndian(sequence) + data, to: &out)
            sequence += 1
        }
        written += 1
    }

    /// The frames appended so far.
    public var framesWritten: Int { written }

    /// The finished file.
    public consuming func finish() -> [UInt8] {
        precondition(written == frameCount, "\(written) frames written, \(frameCount) declared")
        PNGEncoder.appendChunk("IEND", [], to: &out)
        return out
    }
}
