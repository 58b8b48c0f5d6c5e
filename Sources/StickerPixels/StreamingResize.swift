#if canImport(Glibc)
    import Glibc
#endif

/// One run of ``Resampler/resize(_:width:height:)``: a streaming separable filter.
///
/// Each source row is filtered horizontally once (16-bit fixed-point taps, two per pmaddwd)
/// into a small ring of float rows (they keep the precision and the negative lobes); each
/// output row then sums the ring rows it needs, four pixels at a time in registers, so the
/// working set stays in cache. Transparent pixels are zeros in premultiplied space and
/// contribute nothing, so each ring row remembers the output columns its visible pixels reach,
/// only those are computed, and the rest of its slot is kept zero.
///
/// The unsafe buffers are this run's own, allocated once and freed when it ends.
struct StreamingResize: ~Copyable {
    private let source: UnsafeRawBufferPointer
    private let sourceWidth: Int
    private let width: Int
    private let ringRows: Int
    private let horizontal: Contributions
    private let spans: UnsafeBufferPointer<Contributions.Span>
    private let weightPairs: UnsafeBufferPointer<SIMD8<Int16>>
    /// Slot `r % ringRows` holds filtered source row `r`, `width` pixels.
    private let ring: UnsafeMutableBufferPointer<SIMD4<Float>>
    /// The output columns each slot's row reaches; the slot is zero everywhere else.
    private let ringColumns: UnsafeMutableBufferPointer<Range<Int>>
    /// The current source row as pixel pairs, for the horizontal kernel.
    private let pairs: UnsafeMutableBufferPointer<SIMD8<Int16>>
    /// One output row's taps: ring slot offsets and weights.
    private let tapOffsets: UnsafeMutableBufferPointer<Int>
    private let tapWeights: UnsafeMutableBufferPointer<Float>
    /// The next source row to filter into the ring.
    private var nextSourceRow = 0

    /// A run over `source` (premultiplied RGBA8 rows of `sourceWidth` pixels) to rows of
    /// `width` pixels, with `horizontal`'s spans and fixed-point weight pairs; `ringRows` is the
    /// most source rows a vertical span covers.
    init(
        source: UnsafeRawBufferPointer, sourceWidth: Int, width: Int, ringRows: Int, horizontal: Contributions,
        spans: UnsafeBufferPointer<Contributions.Span>, weightPairs: UnsafeBufferPointer<SIMD8<Int16>>
    ) {
        self.source = source
        self.sourceWidth = sourceWidth
        self.width = width
        self.ringRows = ringRows
        self.horizontal = horizontal
        self.spans = spans
        self.weightPairs = weightPairs
        ring = .allocate(capacity: ringRows * width)
        ring.initialize(repeating: .zero)
        ringColumns = .allocate(capacity: ringRows)
        ringColumns.initialize(repeating: 0..<0)
        pairs = .allocate(capacity: sourceWidth)
        pairs.initialize(repeating: .zero)
        tapOffsets = .allocate(capacity: ringRows)
        tapOffsets.initialize(repeating: 0)
        tapWeights = .allocate(capacity: ringRows)
        tapWeights.initialize(repeating: 0)
    }

    deinit {
        ring.deallocate()
        ringColumns.deallocate()
        pairs.deallocate()
        tapOffsets.deallocate()
        tapWeights.deallocate()
    }

    /// Writes output row `y` (4 bytes a pixel at `out + y * width * 4`): filters the source rows
    /// its vertical `span` reaches that are not in the ring yet, then sums the ring's rows.
    /// Safe: spans lie inside the source (see ``Contributions``), and a vertical span never
    /// covers more than `ringRows` rows, so no slot is overwritten while a span still reads it.
    mutating func writeRow(
        _ y: Int, span: Contributions.Span, weights: UnsafeBufferPointer<Float>,
        into out: UnsafeMutablePointer<UInt8>
    ) {
        while nextSourceRow < span.start &+ span.count {
            filterSourceRow(nextSourceRow)
            nextSourceRow &+= 1
        }
        sumRing(span: span, weights: weights, into: UnsafeMutableRawPointer(out + y &* width &* 4))
    }

    /// The horizontal pass: source row `r` filtered into its ring slot, only over the output
    /// columns its visible pixels reach; what the slot's previous row left elsewhere is zeroed.
    private func filterSourceRow(_ r: Int) {
        let base = r &* sourceWidth &* 4
        let visible = Resampler.visibleRange(source, offset: base, count: sourceWidth)
        let columns = horizontal.outputs(reading: visible)
        let slotIndex = r % ringRows
        let slot = ring.baseAddress! + slotIndex &* width
        let old = ringColumns[slotIndex]
        if columns.isEmpty {
            for x in old { slot[x] = .zero }
        } else {
            for x in old.lowerBound..<max(old.lowerBound, min(old.upperBound, columns.lowerBound)) { slot[x] = .zero }
            for x in min(old.upperBound, max(old.lowerBound, columns.upperBound))..<old.upperBound { slot[x] = .zero }
        }
        ringColumns[slotIndex] = columns
        guard !columns.isEmpty else { return }
        for x in visible {
            pairs[x] = Resampler.pixelPair(source, offset: base &+ x &* 4, last: x &+ 1 == sourceWidth)
        }
        for x in columns {
            let h = spans[x]
            // Only the visible part of the span: the rest is zeros.
            let from = max(h.start, visible.lowerBound)
            let to = min(h.start &+ h.count, visible.upperBound)
            // Two taps a step (one pmaddwd: pixel pair k, k+1 times weight pair), two
            // accumulators so the adds do not wait on each other. A pair's second pixel past
            // `to` is transparent (zero) or has weight 0.
            var even = SIMD4<Int32>.zero
            var odd = SIMD4<Int32>.zero
            let w = weightPairs.baseAddress! + (h.offset &- h.start)
            var k = from
            while k &+ 2 < to {
                even &+= Resampler.multiplyAddPairs(pairs[k], w[k])
                odd &+= Resampler.multiplyAddPairs(pairs[k &+ 2], w[k &+ 2])
                k &+= 4
            }
            if k < to { even &+= Resampler.multiplyAddPairs(pairs[k], w[k]) }
            slot[x] = SIMD4<Float>(even &+ odd) * Contributions.inverseWeightScale
        }
    }

    /// The vertical pass: one output row, the weighted sum of the ring rows `span` reads,
    /// written as clamped bytes; zero outside the columns any of them reaches.
    private func sumRing(
        span: Contributions.Span, weights: UnsafeBufferPointer<Float>, into row: UnsafeMutableRawPointer
    ) {
        // The rows with anything visible, and the columns any of them reaches.
        var columns = 0..<0
        var taps = 0
        for k in 0..<span.count {
            let r = (span.start &+ k) % ringRows
            let c = ringColumns[r]
            if c.isEmpty { continue }
            columns =
                columns.isEmpty ? c : min(columns.lowerBound, c.lowerBound)..<max(columns.upperBound, c.upperBound)
            tapOffsets[taps] = r &* width
            tapWeights[taps] = weights[span.offset &+ k]
            taps &+= 1
        }
        memset(row, 0, width &* 4)
        if columns.isEmpty { return }
        // Within `columns` every tap row's slot holds its value or zero.
        let slots = UnsafePointer(ring.baseAddress!)
        var x = columns.lowerBound
        while x &+ 4 <= columns.upperBound {
            var a0 = SIMD4<Float>.zero
            var a1 = SIMD4<Float>.zero
            var a2 = SIMD4<Float>.zero
            var a3 = SIMD4<Float>.zero
            for t in 0..<taps {
                let p = slots + (tapOffsets[t] &+ x)
                let w = tapWeights[t]
                a0 += p[0] * w
                a1 += p[1] * w
                a2 += p[2] * w
                a3 += p[3] * w
            }
            row.storeBytes(of: Resampler.clampedBytes(a0), toByteOffset: x &* 4, as: SIMD4<UInt8>.self)
            row.storeBytes(of: Resampler.clampedBytes(a1), toByteOffset: (x &+ 1) &* 4, as: SIMD4<UInt8>.self)
            row.storeBytes(of: Resampler.clampedBytes(a2), toByteOffset: (x &+ 2) &* 4, as: SIMD4<UInt8>.self)
            row.storeBytes(of: Resampler.clampedBytes(a3), toByteOffset: (x &+ 3) &* 4, as: SIMD4<UInt8>.self)
            x &+= 4
        }
        while x < columns.upperBound {
            var a = SIMD4<Float>.zero
            for t in 0..<taps { a += slots[tapOffsets[t] &+ x] * tapWeights[t] }
            row.storeBytes(of: Resampler.clampedBytes(a), toByteOffset: x &* 4, as: SIMD4<UInt8>.self)
            x &+= 1
        }
    }
}
