import FoundationEssentials
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Resizes premultiplied RGBA8 images with a separable filter.
///
/// Working in premultiplied space is what keeps soft edges clean: a half-transparent red
/// pixel next to a transparent (black, alpha 0) one averages to a more transparent red, not
/// a darker one. When shrinking, the filter is widened by the shrink factor so it averages
/// every source pixel under a destination pixel (no aliasing on thin lines); negative lobes
/// are clamped so that colour never exceeds alpha.
public struct Resampler: Sendable, Hashable {
    /// The filter kernel.
    public enum Filter: String, Sendable, Hashable, CaseIterable {
        /// Lanczos, 3 lobes: sharp, the usual choice for downscaling photos and art.
        case lanczos3
        /// Bicubic (Keys, a = -0.5, as Pillow's and ImageMagick's Catmull-Rom): between Lanczos
        /// and the triangle, a little ringing; flat art scaled with it compresses markedly better.
        case bicubic
        /// Triangle (tent): softer, no ringing, a little less alias suppression.
        case triangle
        /// Box: when shrinking, each output pixel is the mean of the source pixels it covers
        /// (when enlarging, the nearest one). No ringing and no blur past the pixel's own area,
        /// so flat colours stay exact: the terminal preview's choice, where a cell is many pixels.
        case box

        /// The kernel's radius in filter units.
        var support: Double {
            switch self {
            case .lanczos3: return 3
            case .bicubic: return 2
            case .triangle: return 1
            case .box: return 0.5
            }
        }

        /// The kernel's value at distance `x`.
        func weight(_ x: Double) -> Double {
            let x = abs(x)
            switch self {
            case .lanczos3:
                if x < 1e-9 { return 1 }
                if x >= 3 { return 0 }
                let px = Double.pi * x
                // sin(px) from sin(px / 3) by the triple-angle identity: one sin, not two.
                let third = sin(px / 3)
                return 3 * third * (3 - 4 * third * third) * third / (px * px)
            case .bicubic:
                let a = -0.5
                if x < 1 { return ((a + 2) * x - (a + 3)) * x * x + 1 }
                if x < 2 { return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a }
                return 0
            case .triangle:
                return max(0, 1 - x)
            case .box:
                // A source pixel centred exactly on the edge is shared by both sides.
                return x < 0.5 ? 1 : (x == 0.5 ? 0.5 : 0)
            }
        }
    }

    /// The kernel used.
    public var filter: Filter

    /// Creates a resampler (Lanczos 3 by default).
    public init(filter: Filter = .lanczos3) {
        self.filter = filter
    }

    /// `image` resized to `width` x `height`.
    public func resize(_ image: RGBAImage, width: Int, height: Int) -> RGBAImage {
        precondition(width > 0 && height > 0)
        if width == image.width && height == image.height { return image }
        guard image.width > 0, image.height > 0 else { return RGBAImage(width: width, height: height) }
        let horizontal = ContributionCache.shared.table(source: image.width, destination: width, filter: filter)
        // A square scaled to a square (every sticker) has the same table both ways.
        let vertical =
            image.height == image.width && height == width
            ? horizontal : ContributionCache.shared.table(source: image.height, destination: height, filter: filter)
        let result = [UInt8](unsafeUninitializedCapacity: width * height * 4) { out, count in
            image.pixels.withUnsafeBytes { source in
                horizontal.withPairPointers { hSpans, hWeights in
                    vertical.withPointers { vSpans, vWeights in
                        var pass = StreamingResize(
                            source: source, sourceWidth: image.width, width: width, ringRows: vertical.maxCount,
                            horizontal: horizontal, spans: hSpans, weightPairs: hWeights)
                        for y in 0..<height {
                            pass.writeRow(y, span: vSpans[y], weights: vWeights, into: out.baseAddress!)
                        }
                    }
                }
            }
            count = width * height * 4
        }
        return RGBAImage(width: width, height: height, pixels: result)
    }
}

extension Resampler {
    /// Pixels `x` and `x + 1` of a row (at `offset`, the byte offset of `x`) as 16-bit lanes
    /// interleaved channel by channel, `r0 r1 g0 g1 b0 b1 a0 a1`: the layout whose product
    /// with a weight pair ``multiplyAddPairs(_:_:)`` sums in one step. At the row's `last`
    /// pixel the second is zero (the next row's first pixel is not read).
    @inline(__always)
    static func pixelPair(_ source: UnsafeRawBufferPointer, offset: Int, last: Bool) -> SIMD8<Int16> {
        let bytes =
            last
            ? SIMD8<UInt8>(
                lowHalf: source.loadUnaligned(fromByteOffset: offset, as: SIMD4<UInt8>.self), highHalf: .zero)
            : source.loadUnaligned(fromByteOffset: offset, as: SIMD8<UInt8>.self)
        let interleaved = SIMD8<UInt8>(bytes[0], bytes[4], bytes[1], bytes[5], bytes[2], bytes[6], bytes[3], bytes[7])
        return SIMD8<Int16>(truncatingIfNeeded: interleaved)
    }

    /// Per channel, `p0 * w0 + p1 * w1` of a pixel pair and a weight pair (both interleaved,
    /// see ``pixelPair(_:offset:last:)``), in 32 bits: LLVM makes this one SSE2 `pmaddwd`.
    @inline(__always)
    static func multiplyAddPairs(_ pixels: SIMD8<Int16>, _ weights: SIMD8<Int16>) -> SIMD4<Int32> {
        let products = SIMD8<Int32>(truncatingIfNeeded: pixels) &* SIMD8<Int32>(truncatingIfNeeded: weights)
        return products.evenHalf &+ products.oddHalf
    }

    /// A filtered premultiplied pixel as bytes: alpha clamped to 0...255 and colour to
    /// 0...alpha (negative lobes can overshoot either way), each rounded to nearest (ties to
    /// even). Adding 1.5 * 2^23 puts a float of 0...255 in the low bits of its mantissa,
    /// rounded: a few SSE2 instructions instead of four checked conversions.
    @inline(__always)
    static func clampedBytes(_ sum: SIMD4<Float>) -> SIMD4<UInt8> {
        let alpha = SIMD4<Float>(repeating: min(max(sum[3], 0), 255))
        // Lane 3 comes out as alpha itself: min(sum, clamp(sum)) then max(_, 0).
        var clamped = sum.replacing(with: alpha, where: sum .> alpha)
        clamped.replace(with: 0, where: clamped .< 0)
        let bits = unsafeBitCast(clamped + 12_582_912, to: SIMD4<UInt32>.self)
        return SIMD4<UInt8>(truncatingIfNeeded: bits)
    }

    /// The pixels of a row from the first to the last that is not fully transparent (all four
    /// premultiplied bytes zero); empty when the whole row is transparent.
    static func visibleRange(_ source: UnsafeRawBufferPointer, offset: Int, count: Int) -> Range<Int> {
        var first = 0
        while first < count && source.loadUnaligned(fromByteOffset: offset &+ first &* 4, as: UInt32.self) == 0 {
            first &+= 1
        }
        guard first < count else { return 0..<0 }
        var last = count &- 1
        while source.loadUnaligned(fromByteOffset: offset &+ last &* 4, as: UInt32.self) == 0 { last &-= 1 }
        return first..<(last &+ 1)
    }
}

/// Contribution tables already made, by source size, destination size and filter: a browser
/// scales every frame of every sticker to one of a few sizes, and a table costs a sine per tap.
final class ContributionCache: Sendable {
    static let shared = ContributionCache()
    /// More distinct tables than this and the cache starts again (they are small and quick).
    private static let capacity = 32

    private struct Key: Hashable {
        var source: Int, destination: Int, filter: Resampler.Filter
    }

    private let tables = Mutex<[Key: Contributions]>([:])

    /// The table for scaling `source` pixels to `destination` with `filter`, made once.
    func table(source: Int, destination: Int, filter: Resampler.Filter) -> Contributions {
        let key = Key(source: source, destination: destination, filter: filter)
        if let table = tables.withLock({ $0[key] }) { return table }
        let table = Contributions(source: source, destination: destination, filter: filter)
        tables.withLock { tables in
            if tables.count >= Self.capacity { tables.removeAll() }
            tables[key] = table
        }
        return table
    }
}

/// For each destination pixel along one axis: the source pixels it reads and their
/// normalised weights.
struct Contributions {
    struct Span {
        var start: Int
        var count: Int
        var offset: Int
    }

    var spans: [Span] = []
    var weights: [Float] = []
    /// For the horizontal pass: at each tap `t` of a span (same offsets as `weights`), taps
    /// `t` and `t + 1` (0 past the span's end) in fixed point (``weightScale`` is 1.0),
    /// repeated for the four channels: `w0 w1 w0 w1 w0 w1 w0 w1`. A span's fixed-point taps
    /// sum to exactly ``weightScale``, so a solid colour comes out exactly.
    var pairWeights: [SIMD8<Int16>] = []

    /// Fixed-point 1.0 of ``pairWeights``: 14 bits keep a weight in Int16 when enlarging
    /// (up to 1.0) and a pair's 32-bit sum far from overflow (255 * 2^14 * the lobes' total).
    static let weightScale: Int32 = 1 << 14
    /// 1 / ``weightScale``, exact in Float.
    static let inverseWeightScale = Float(1) / Float(weightScale)
    /// The destination pixels whose spans read any of `sources` (spans are ordered).
    func outputs(reading sources: Range<Int>) -> Range<Int> {
        guard !sources.isEmpty else { return 0..<0 }
        var low = 0
        var high = spans.count
        // First span that ends after sources.lowerBound.
        while low < high {
            let mid = (low + high) / 2
            if spans[mid].start + spans[mid].count <= sources.lowerBound { low = mid + 1 } else { high = mid }
        }
        var end = low
        while end < spans.count && spans[end].start < sources.upperBound { end += 1 }
        return low..<end
    }

    /// The most source pixels any destination pixel reads.
    var maxCount: Int { spans.map(\.count).max() ?? 1 }

    /// Spans and float weights as buffer pointers, for the kernels.
    func withPointers<R>(_ body: (UnsafeBufferPointer<Span>, UnsafeBufferPointer<Float>) -> R) -> R {
        spans.withUnsafeBufferPointer { s in weights.withUnsafeBufferPointer { w in body(s, w) } }
    }

    /// Spans and fixed-point weight pairs as buffer pointers, for the horizontal kernel.
    func withPairPointers<R>(_ body: (UnsafeBufferPointer<Span>, UnsafeBufferPointer<SIMD8<Int16>>) -> R) -> R {
        spans.withUnsafeBufferPointer { s in pairWeights.withUnsafeBufferPointer { w in body(s, w) } }
    }

    /// `normalised` (summing to 1) in fixed point summing to exactly ``weightScale``: each
    /// rounded, the rounding's total error given to the largest tap.
    static func fixedPoint(_ normalised: [Double]) -> [Int32] {
        var taps = normalised.map { Int32(($0 * Double(weightScale)).rounded()) }
        let error = weightScale - taps.reduce(0, +)
        if let largest = normalised.indices.max(by: { abs(normalised[$0]) < abs(normalised[$1]) }) {
            taps[largest] += error
        }
        return taps
    }

    /// Appends a span's weight pairs (see ``pairWeights``).
    mutating func appendPairs(_ taps: [Int32]) {
        for t in taps.indices {
            let first = Int16(taps[t])
            let second = t + 1 < taps.count ? Int16(taps[t + 1]) : 0
            pairWeights.append(SIMD8(first, second, first, second, first, second, first, second))
        }
    }

    init(source: Int, destination: Int, filter: Resampler.Filter) {
        let ratio = Double(destination) / Double(source)
        // Shrinking widens the kernel so every covered source pixel contributes.
        let stretch = max(1, 1 / ratio)
        let radius = filter.support * stretch
        for d in 0..<destination {
            let centre = (Double(d) + 0.5) / ratio
            let first = max(0, Int((centre - radius).rounded(.down)))
            let last = min(source - 1, Int((centre + radius).rounded(.up)))
            var local: [Double] = []
            var total = 0.0
            for s in first...max(first, last) {
                let w = filter.weight((Double(s) + 0.5 - centre) / stretch)
                local.append(w)
                total += w
            }
            if total == 0 {
                // Cannot happen for these kernels (the nearest pixel always has weight); be safe.
                let nearest = min(source - 1, max(0, Int(centre)))
                spans.append(Span(start: nearest, count: 1, offset: weights.count))
                weights.append(1)
                appendPairs([Self.weightScale])
                continue
            }
            spans.append(Span(start: first, count: local.count, offset: weights.count))
            weights.append(contentsOf: local.map { Float($0 / total) })
            appendPairs(Self.fixedPoint(local.map { $0 / total }))
        }
    }
}
