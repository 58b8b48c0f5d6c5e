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
        PNGEncoder.appendChunk(
            "acTL", PNGEncoder.bigEndian(UInt32(frameCount)) + PNGEncoder.bigEndian(UInt32(max(0, plays))), to: &out)
    }

    /// Appends a frame: `pixels` (premultiplied RGBA8, `width * height * 4` bytes) replace
    /// the canvas rectangle at (`x`, `y`) and the whole canvas shows for `delay`.
    public mutating func append(
        premultiplied pixels: [UInt8], x: Int, y: Int, width: Int, height: Int, delay: FrameDelay
    ) {
        precondition(written < frameCount, "more frames than declared")
        precondition(width > 0 && height > 0 && pixels.count == width * height * 4)
        precondition(
            x >= 0 && y >= 0 && x + width <= self.width && y + height <= self.height, "frame outside the canvas")
        precondition(
            written > 0 || (x == 0 && y == 0 && width == self.width && height == self.height),
            "the first frame covers the canvas")
        PNGEncoder.appendAPNGFrame(
            PNGEncoder.compressedRows(pixels, width: width, height: height),
            rect: FrameRect(x: x, y: y, width: width, height: height),
            delay: delay.apngFields,
            dispose: .none, blend: .source, isFirst: written == 0, sequence: &sequence, to: &out)
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

extension PNGEncoder {
    /// Appends one APNG frame: its fcTL, then its data as IDAT (the first frame, which is also
    /// the default image) or as fdAT, numbering the chunks from `sequence` and advancing it.
    static func appendAPNGFrame(
        _ data: [UInt8], rect: FrameRect, delay: (numerator: UInt16, denominator: UInt16),
        dispose: DisposeOp, blend: BlendOp, isFirst: Bool, sequence: inout UInt32, to out: inout [UInt8]
    ) {
        var control = bigEndian(sequence) + bigEndian(UInt32(rect.width)) + bigEndian(UInt32(rect.height))
        control += bigEndian(UInt32(rect.x)) + bigEndian(UInt32(rect.y))
        control += bigEndian16(delay.numerator) + bigEndian16(delay.denominator)
        control += [dispose.apngCode, blend == .source ? 0 : 1]
        appendChunk("fcTL", control, to: &out)
        sequence += 1
        if isFirst {
            appendChunk("IDAT", data, to: &out)
        } else {
            appendChunk("fdAT", bigEndian(sequence) + data, to: &out)
            sequence += 1
        }
    }
}

extension DisposeOp {
    /// APNG's `dispose_op` byte.
    var apngCode: UInt8 {
        switch self {
        case .none: return 0
        case .background: return 1
        case .previous: return 2
        }
    }
}
