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
        var tally = Tally(count: reference.count, width: width, height: height)
        var position = 0
        try decoder.forEachFrame(threads: 1) { frame in
            defer { position += 1 }
            for index in shownFor[position] { tally.add(frame.pixels, against: reference.frames[index], at: index) }
        }
        return tally.fidelity
    }

    /// Decodes `bytes` and compares what it shows at each start time of `durations` with the
    /// reference frame `frames` hands over for that instant, SSIM included, as
    /// ``measure(_:against:limits:)`` does; the reference frames come one at a time and are let
    /// go, so only the file's own frames are held.
    static func measure(
        _ bytes: [UInt8], againstFramesShownFor durations: [Double], side: Int, limits: DecodingLimits,
        frames: ((Int, [UInt8]) -> Void) throws -> Void
    ) throws -> Fidelity {
        let decoder = try AnimationDecoder(bytes: bytes, limits: limits)
        let shown = try decoder.decodeAllFrames(threads: 1).map(\.pixels)
        let shownDurations = decoder.info.frames.map {
            FrameTimingPolicy.apple.displayMilliseconds(for: $0.delay) / 1000
        }
        let shownAt = FrameTimeline.indicesShown(durations: shownDurations, atStartsOf: durations)
        guard !durations.isEmpty else { return Fidelity(maxError: 255, psnr: 0, ssim: 0) }
        var tally = Tally(count: durations.count, width: side, height: side)
        try frames { index, expected in tally.add(shown[shownAt[index]], against: expected, at: index) }
        return tally.fidelity
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
    /// difference. Sixteen bytes a step, on 128-bit vectors with masks and shifts only (the
    /// standard library's `pointwiseMax` and widening conversions compile to calls): each
    /// difference is squared in a 16-bit lane (255 squared fits) and the squares summed in
    /// 32-bit lanes over blocks short enough that they cannot overflow (2,048 steps add at
    /// most 4,096 squares of at most 65,025 to a lane), each block's lanes then added to the
    /// 64-bit total.
    static func squaredDifferences(_ a: [UInt8], _ b: [UInt8]) -> (sum: UInt64, largest: Int) {
        precondition(a.count == b.count)
        return a.withUnsafeBytes { x in
            b.withUnsafeBytes { y in
                let count = x.count
                let lowByte = SIMD8<UInt16>(repeating: 0x00FF)
                let lowHalf = SIMD4<UInt32>(repeating: 0xFFFF)
                var sum: UInt64 = 0
                var largest = SIMD16<UInt8>()
                var offset = 0
                while offset &+ 16 <= count {
                    let blockEnd = min(count, offset &+ 2_048 &* 16)
                    // Two sums, so the additions of one step do not wait on each other.
                    var evenLanes = SIMD4<UInt32>()
                    var oddLanes = SIMD4<UInt32>()
                    // Safe: every load reads 16 bytes that end at or before `count`.
                    while offset &+ 16 <= blockEnd {
                        let p = x.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self)
                        let q = y.loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self)
                        let difference = (p &- q).replacing(with: q &- p, where: q .> p)
                        largest.replace(with: difference, where: difference .> largest)
                        // The even bytes and the odd bytes, each in a 16-bit lane, squared.
                        let pairs = unsafeBitCast(difference, to: SIMD8<UInt16>.self)
                        let even = pairs & lowByte
                        let odd = pairs &>> 8
                        let evenSquares = unsafeBitCast(even &* even, to: SIMD4<UInt32>.self)
                        let oddSquares = unsafeBitCast(odd &* odd, to: SIMD4<UInt32>.self)
                        evenLanes &+= (evenSquares & lowHalf) &+ (evenSquares &>> 16)
                        oddLanes &+= (oddSquares & lowHalf) &+ (oddSquares &>> 16)
                        offset &+= 16
                    }
                    for lane in 0..<4 { sum &+= UInt64(evenLanes[lane]) &+ UInt64(oddLanes[lane]) }
                }
                var top: UInt8 = 0
                for lane in 0..<16 { top = max(top, largest[lane]) }
                while offset < count {
                    let (p, q) = (x[offset], y[offset])
                    let difference = p > q ? p &- q : q &- p
                    top = max(top, difference)
                    sum &+= UInt64(difference) &* UInt64(difference)
                    offset &+= 1
                }
                return (sum, Int(top))
            }
        }
    }
}
