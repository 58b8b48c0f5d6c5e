import Foundation

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
        /// Triangle (tent): softer, no ringing, a little less alias suppression.
        case triangle

        /// The kernel's radius in filter units.
        var support: Double {
            switch self {
            case .lanczos3: return 3
            case .triangle: return 1
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
                return 3 * sin(px) * sin(px / 3) / (px * px)
            case .triangle:
                return max(0, 1 - x)
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
        let horizontal = Contributions(source: image.width, destination: width, filter: filter)
        // A square scaled to a square (every sticker) has the same table both ways.
        let vertical = image.height == image.width && height == width
            ? horizontal : Contributions(source: image.height, destination: height, filter: filter)
        // Streaming separable filter: each source row is filtered horizontally once, into a
        // small ring of rows (floats keep precision and negative lobes); each output row then
        // sums the ring rows it needs. The working set stays in cache. Transparent pixels are
        // zeros in premultiplied space and contribute nothing, so each ring row remembers the
        // output columns its non-transparent pixels reach, and only those are computed.
        let sourceWidth = image.width
        let ringRows = vertical.maxCount
        var ring = [SIMD4<Float>](repeating: .zero, count: ringRows * width)
        var ringColumns = [Range<Int>](repeating: 0..<0, count: ringRows)
        var sourceRow = [SIMD4<Float>](repeating: .zero, count: sourceWidth)
        var accumulator = [SIMD4<Float>](repeating: .zero, count: width)
        var nextSourceRow = 0
        let result = [UInt8](unsafeUninitializedCapacity: width * height * 4) { out, count in
            image.pixels.withUnsafeBytes { source in
                ring.withUnsafeMutableBufferPointer { ring in
                    sourceRow.withUnsafeMutableBufferPointer { row in
                        accumulator.withUnsafeMutableBufferPointer { acc in
                            horizontal.withPointers { hSpans, hWeights in
                                vertical.withPointers { vSpans, vWeights in
                                    // Safe: spans lie inside the source (see Contributions); ring
                                    // slot r % ringRows holds filtered source row r, and a
                                    // vertical span never covers more than ringRows rows.
                                    for y in 0..<height {
                                        let span = vSpans[y]
                                        while nextSourceRow < span.start &+ span.count {
                                            let r = nextSourceRow % ringRows
                                            let base = nextSourceRow &* sourceWidth &* 4
                                            let opaque = Resampler.visibleRange(source, offset: base, count: sourceWidth)
                                            let columns = horizontal.outputs(reading: opaque)
                                            ringColumns[r] = columns
                                            if !columns.isEmpty {
                                                for x in opaque {
                                                    // One 4-byte load, widened lane-wise.
                                                    let bytes = source.loadUnaligned(fromByteOffset: base &+ x &* 4, as: SIMD4<UInt8>.self)
                                                    row[x] = SIMD4<Float>(SIMD4<Int32>(truncatingIfNeeded: bytes))
                                                }
                                                let slot = ring.baseAddress! + r &* width
                                                for x in columns {
                                                    let h = hSpans[x]
                                                    // Only the visible part of the span: the rest is zeros.
                                                    let from = max(h.start, opaque.lowerBound), to = min(h.start &+ h.count, opaque.upperBound)
                                                    // Two accumulators: one chain of adds would wait
                                                    // on each add's latency.
                                                    var even = SIMD4<Float>.zero, odd = SIMD4<Float>.zero
                                                    let w = hWeights.baseAddress! + (h.offset &- h.start)
                                                    var k = from
                                                    while k &+ 1 < to {
                                                        even += row[k] * w[k]
                                                        odd += row[k &+ 1] * w[k &+ 1]
                                                        k &+= 2
                                                    }
                                                    if k < to { even += row[k] * w[k] }
                                                    slot[x] = even + odd
                                                }
                                            }
                                            nextSourceRow &+= 1
                                        }
                                        var columns = 0..<0
                                        for k in 0..<span.count {
                                            let c = ringColumns[(span.start &+ k) % ringRows]
                                            if c.isEmpty { continue }
                                            columns = columns.isEmpty ? c : min(columns.lowerBound, c.lowerBound)..<max(columns.upperBound, c.upperBound)
                                        }
                                        let outBase = y &* width &* 4
                                        memset(out.baseAddress! + outBase, 0, width &* 4)
                                        if columns.isEmpty { continue }
                                        for x in columns { acc[x] = .zero }
                                        for k in 0..<span.count {
                                            let r = (span.start &+ k) % ringRows
                                            let c = ringColumns[r]
                                            if c.isEmpty { continue }
                                            let w = vWeights[span.offset &+ k]
                                            let slot = ring.baseAddress! + r &* width
                                            for x in c { acc[x] += slot[x] * w }
                                        }
                                        for x in columns {
                                            // Clamp alpha to 0...255 and colour to 0...alpha (negative
                                            // lobes can overshoot either way), then round half up.
                                            let a = min(max(acc[x][3], 0), 255)
                                            let c = acc[x].clamped(lowerBound: .zero, upperBound: SIMD4<Float>(repeating: a)) + 0.5
                                            let o = outBase &+ x &* 4
                                            out[o] = UInt8(c[0]); out[o &+ 1] = UInt8(c[1]); out[o &+ 2] = UInt8(c[2]); out[o &+ 3] = UInt8(a + 0.5)
                                        }
                                    }
                                }
                            }
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
    /// The pixels of a row from the first to the last that is not fully transparent (all four
    /// premultiplied bytes zero); empty when the whole row is transparent.
    static func visibleRange(_ source: UnsafeRawBufferPointer, offset: Int, count: Int) -> Range<Int> {
        var first = 0
        while first < count && source.loadUnaligned(fromByteOffset: offset &+ first &* 4, as: UInt32.self) == 0 { first &+= 1 }
        guard first < count else { return 0..<0 }
        var last = count &- 1
        while source.loadUnaligned(fromByteOffset: offset &+ last &* 4, as: UInt32.self) == 0 { last &-= 1 }
        return first..<(last &+ 1)
    }
}

/// For each destination pixel along one axis: the source pixels it reads and their
/// normalised weights.
private struct Contributions {
    struct Span {
        var start: Int
        var count: Int
        var offset: Int
    }

    var spans: [Span] = []
    var weights: [Float] = []
    /// The destination pixels whose spans read any of `sources` (spans are ordered).
    func outputs(reading sources: Range<Int>) -> Range<Int> {
        guard !sources.isEmpty else { return 0..<0 }
        var low = 0, high = spans.count
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

    /// Both tables as buffer pointers, for the kernels.
    func withPointers<R>(_ body: (UnsafeBufferPointer<Span>, UnsafeBufferPointer<Float>) -> R) -> R {
        spans.withUnsafeBufferPointer { s in weights.withUnsafeBufferPointer { w in body(s, w) } }
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
                continue
            }
            spans.append(Span(start: first, count: local.count, offset: weights.count))
            weights.append(contentsOf: local.map { Float($0 / total) })
        }
    }
}
