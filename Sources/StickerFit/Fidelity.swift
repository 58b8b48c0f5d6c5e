import AnimationCodec
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// How far a fitted file is from the scaled original: the largest channel difference of any
/// pixel at any frame's start time (premultiplied), the PSNR over all of them, and for a file
/// measured by decoding it, the mean SSIM (``StructuralSimilarity``).
public struct Fidelity: Sendable, Hashable {
    /// The largest difference of one channel, 0-255 (0: exact).
    public var maxError: Int
    /// Peak signal-to-noise ratio in dB; `nil` when exact (infinite).
    public var psnr: Double?
    /// Mean SSIM, 0-1 (1: identical); `nil` when exact or not measured (the search ranks by PSNR).
    public var ssim: Double? = nil

    /// Exact.
    static let exact = Fidelity(maxError: 0, psnr: nil)

    /// The worse of the two on each measure (several files of one sticker).
    func worse(_ other: Fidelity) -> Fidelity {
        let psnrs = [psnr, other.psnr].compactMap { $0 }
        let ssims = [ssim, other.ssim].compactMap { $0 }
        return Fidelity(maxError: max(maxError, other.maxError), psnr: psnrs.min(), ssim: ssims.min())
    }

    /// Decodes `bytes` and compares what it shows at each start time of `reference` with it,
    /// SSIM included (``compare(_:_:)`` and ``StructuralSimilarity/compare(_:_:width:height:)``
    /// of its frames). The frames are measured as they are decoded, so the file's frames are
    /// never all held beside the reference's.
    static func measure(_ bytes: [UInt8], against reference: FrameTimeline, limits: DecodingLimits) throws(CodecError)
        -> Fidelity
    {
        let decoder = try AnimationDecoder(bytes: bytes, limits: limits)
        let (width, height) = (decoder.info.width, decoder.info.height)
        let durations = decoder.info.frames.map { FrameTimingPolicy.apple.displayMilliseconds(for: $0.delay) / 1000 }
        // The reference frames each decoded frame is shown for (a shorter loop comes round again).
        let shownFor = FrameTimeline.referenceFramesShown(durations: durations, atStartsOf: reference.durations)
        // Each reference frame's figures, summed in its order as the comparisons of whole timelines are.
        var squares = [UInt64](repeating: 0, count: reference.count)
        var similarity = [Double](repeating: 0, count: reference.count)
        var worst = 0
        var sizesDiffer = false
        var position = 0
        try decoder.forEachFrame(threads: 1) { frame in
            defer { position += 1 }
            for index in shownFor[position] {
                let expected = reference.frames[index]
                guard frame.pixels.count == expected.count, expected.count == width * height * 4 else {
                    sizesDiffer = true
                    continue
                }
                let (sum, largest) = squaredDifferences(expected, frame.pixels)
                squares[index] = sum
                worst = max(worst, largest)
                similarity[index] = StructuralSimilarity.mean(expected, frame.pixels, width: width, height: height)
            }
        }
        if sizesDiffer { return Fidelity(maxError: 255, psnr: 0, ssim: 0) }
        let total = squares.reduce(0.0) { $0 + Double($1) }
        guard total > 0 else { return .exact }
        let samples = reference.frames.reduce(0.0) { $0 + Double($1.count) }
        return Fidelity(
            maxError: worst, psnr: psnr(squares: total, samples: samples),
            ssim: reference.frames.isEmpty ? 1 : similarity.reduce(0, +) / Double(reference.frames.count))
    }

    /// Compares what `shown` shows at each start time of `reference` (its loop repeating) with
    /// `reference`'s frame, over every premultiplied channel; canvases must be the same size.
    public static func compare(_ shown: FrameTimeline, _ reference: FrameTimeline) -> Fidelity {
        var worst = 0
        var squares = 0.0
        var samples = 0.0
        for (frame, other) in zip(reference.frames, shown.framesShown(atStartsOf: reference)) {
            guard other.count == frame.count else { return Fidelity(maxError: 255, psnr: 0) }
            let (sum, largest) = squaredDifferences(frame, other)
            squares += Double(sum)
            worst = max(worst, largest)
            samples += Double(frame.count)
        }
        guard squares > 0 else { return .exact }
        return Fidelity(maxError: worst, psnr: psnr(squares: squares, samples: samples))
    }

    /// The PSNR of an error of `squares` (squared differences summed) over `samples` channels.
    static func psnr(squares: Double, samples: Double) -> Double {
        10 * log10(255 * 255 / (squares / samples))
    }

    /// The sum of squared differences of two equally long byte arrays, and the largest
    /// difference. Summed in 32-bit lanes over blocks short enough that they cannot overflow
    /// (32,768 squares of at most 65,025), so the loop vectorises to multiply-adds.
    static func squaredDifferences(_ a: [UInt8], _ b: [UInt8]) -> (sum: UInt64, largest: Int) {
        precondition(a.count == b.count)
        return a.withUnsafeBufferPointer { x in
            b.withUnsafeBufferPointer { y in
                var sum: UInt64 = 0
                var largest: UInt8 = 0
                var blockStart = 0
                while blockStart < x.count {
                    let blockEnd = min(x.count, blockStart + 32_768)
                    var blockSum: UInt32 = 0
                    // Safe: both buffers hold x.count bytes.
                    for i in blockStart..<blockEnd {
                        let difference = x[i] > y[i] ? x[i] &- y[i] : y[i] &- x[i]
                        largest = max(largest, difference)
                        blockSum &+= UInt32(difference) &* UInt32(difference)
                    }
                    sum &+= UInt64(blockSum)
                    blockStart = blockEnd
                }
                return (sum, Int(largest))
            }
        }
    }
}
