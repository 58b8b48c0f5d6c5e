extension PNGUnfilter {
    /// How far, in bytes, each row of a Paeth quad trails the row before it (a multiple of 16:
    /// the rows move on in blocks of four pixels). The pixels a row reads from the row before
    /// were stored two blocks earlier, so reading them back never waits on the store.
    static let quadLag = 32

    /// Unfilters four Paeth rows of 4-byte pixels together, and the Up rows between them: the
    /// Paeth rows are `paethRows` rows after `first` (the first of them 0, each row
    /// `rowStride` bytes after the one before), every row between two of them an Up row, and
    /// `previous` the row above the first.
    ///
    /// Each row's pixels form a chain (each waits for the one to its left), but row k's pixel
    /// at byte i needs only the row above it up to byte i, so each row runs ``quadLag`` bytes
    /// behind the one above: a 16-byte vector holds one pixel of each of the four rows, and
    /// each ``paethStepBytes(_:left:up:upperLeft:)`` moves all four chains on by a pixel. The
    /// rows are read and written in blocks of four pixels, turned between rows and steps by a
    /// 4x4 transpose of 32-bit pixels. An Up row between only adds the row above it, so the
    /// rows between are finished on the way, at the lower Paeth row's byte.
    @inline(never)
    static func paeth4Quad(
        _ first: UnsafeMutablePointer<UInt8>, paethRows: SIMD4<Int>, rowStride: Int, previous: UnsafePointer<UInt8>,
        count: Int
    ) {
        let lag = quadLag
        @inline(__always) func row(_ index: Int) -> UnsafeMutablePointer<UInt8> { first + index &* rowStride }
        @inline(__always) func finish(
            _ k: Int, from start: Int, to end: Int, left: inout UInt32, upperLeft: inout UInt32
        ) {
            paeth4QuadRow(
                k, first, paethRows: paethRows, rowStride: rowStride, previous: previous, from: start, to: end,
                left: &left, upperLeft: &upperLeft)
        }
        var left: (UInt32, UInt32, UInt32, UInt32) = (0, 0, 0, 0)
        var upperLeft = left
        guard count >= 3 &* lag &+ 16 else {
            // Too narrow to stagger: the rows in turn.
            finish(0, from: 0, to: count, left: &left.0, upperLeft: &upperLeft.0)
            finish(1, from: 0, to: count, left: &left.1, upperLeft: &upperLeft.1)
            finish(2, from: 0, to: count, left: &left.2, upperLeft: &upperLeft.2)
            finish(3, from: 0, to: count, left: &left.3, upperLeft: &upperLeft.3)
            return
        }
        // Each row alone until the one below it has its lag.
        finish(0, from: 0, to: 3 &* lag, left: &left.0, upperLeft: &upperLeft.0)
        finish(1, from: 0, to: 2 &* lag, left: &left.1, upperLeft: &upperLeft.1)
        finish(2, from: 0, to: lag, left: &left.2, upperLeft: &upperLeft.2)
        // Lanes 4k..<4k+4: row k's pixel to the left and the one above that.
        var a = bytes(left)
        var c = bytes(upperLeft)
        let rows = (row(paethRows[0]), row(paethRows[1]), row(paethRows[2]), row(paethRows[3]))
        // Safe: row k is read and written at i - k * lag ..< i - k * lag + 16, within 0..<count
        // since 3 * lag <= i and i + 16 <= count; the Up rows between likewise.
        var i = 3 &* lag
        while i &+ 16 <= count {
            let o1 = i &- lag
            let o2 = o1 &- lag
            let o3 = o2 &- lag
            let x = transpose(
                load(rows.0, i), load(rows.1, o1), load(rows.2, o2), load(rows.3, o3))
            let b = transpose(
                load(previous, i), upRows(from: paethRows[0], to: paethRows[1], first, rowStride, at: o1),
                upRows(from: paethRows[1], to: paethRows[2], first, rowStride, at: o2),
                upRows(from: paethRows[2], to: paethRows[3], first, rowStride, at: o3))
            let r0 = paethStepBytes(x.0, left: a, up: b.0, upperLeft: c)
            let r1 = paethStepBytes(x.1, left: r0, up: b.1, upperLeft: b.0)
            let r2 = paethStepBytes(x.2, left: r1, up: b.2, upperLeft: b.1)
            let r3 = paethStepBytes(x.3, left: r2, up: b.3, upperLeft: b.2)
            a = r3
            c = b.3
            let out = transpose(r0, r1, r2, r3)
            store(out.0, rows.0, i)
            store(out.1, rows.1, o1)
            store(out.2, rows.2, o2)
            store(out.3, rows.3, o3)
            i &+= 16
        }
        left = (pixels(a, 0), pixels(a, 1), pixels(a, 2), pixels(a, 3))
        upperLeft = (pixels(c, 0), pixels(c, 1), pixels(c, 2), pixels(c, 3))
        // Each row's last bytes, in order, each after the row above it is whole.
        finish(0, from: i, to: count, left: &left.0, upperLeft: &upperLeft.0)
        finish(1, from: i &- lag, to: count, left: &left.1, upperLeft: &upperLeft.1)
        finish(2, from: i &- 2 &* lag, to: count, left: &left.2, upperLeft: &upperLeft.2)
        finish(3, from: i &- 3 &* lag, to: count, left: &left.3, upperLeft: &upperLeft.3)
    }

    /// Bytes `start..<end` of the quad's Paeth row `k`, after those of the Up rows above it,
    /// one row at a time (the quad's first and last bytes, and narrow rows).
    @inline(never)
    private static func paeth4QuadRow(
        _ k: Int, _ first: UnsafeMutablePointer<UInt8>, paethRows: SIMD4<Int>, rowStride: Int,
        previous: UnsafePointer<UInt8>, from start: Int, to end: Int, left: inout UInt32,
        upperLeft: inout UInt32
    ) {
        guard start < end else { return }
        // Safe: start..<end lies within every row's `count` bytes.
        if k > 0 {
            for index in stride(from: paethRows[k &- 1] &+ 1, to: paethRows[k], by: 1) {
                let between = first + index &* rowStride
                up(between + start, UnsafePointer(between - rowStride + start), count: end &- start)
            }
        }
        let row = first + paethRows[k] &* rowStride
        let above = k == 0 ? previous : UnsafePointer(row - rowStride)
        paeth4Row(row, above, from: start, to: end, left: &left, upperLeft: &upperLeft)
    }

    /// The row above Paeth row `lower` at byte `offset`, 16 bytes: Paeth row `upper` plus each
    /// Up row between, each of which is stored back finished.
    @inline(__always)
    private static func upRows(
        from upper: Int, to lower: Int, _ first: UnsafeMutablePointer<UInt8>, _ rowStride: Int, at offset: Int
    ) -> SIMD16<UInt8> {
        var sum = load(first + upper &* rowStride, offset)
        var index = upper &+ 1
        while index < lower {
            let between = first + index &* rowStride
            sum &+= load(between, offset)
            store(sum, between, offset)
            index &+= 1
        }
        return sum
    }

    @inline(__always)
    private static func load(_ row: UnsafePointer<UInt8>, _ offset: Int) -> SIMD16<UInt8> {
        UnsafeRawPointer(row).loadUnaligned(fromByteOffset: offset, as: SIMD16<UInt8>.self)
    }

    @inline(__always)
    private static func store(_ value: SIMD16<UInt8>, _ row: UnsafeMutablePointer<UInt8>, _ offset: Int) {
        UnsafeMutableRawPointer(row).storeBytes(of: value, toByteOffset: offset, as: SIMD16<UInt8>.self)
    }

    /// Four blocks of four 4-byte pixels turned the other way: block k's pixel j becomes
    /// vector j's pixel k (rows to steps and back).
    @inline(__always)
    private static func transpose(
        _ r0: SIMD16<UInt8>, _ r1: SIMD16<UInt8>, _ r2: SIMD16<UInt8>, _ r3: SIMD16<UInt8>
    ) -> (SIMD16<UInt8>, SIMD16<UInt8>, SIMD16<UInt8>, SIMD16<UInt8>) {
        let upper = SIMD8<UInt32>(
            lowHalf: unsafeBitCast(r0, to: SIMD4<UInt32>.self), highHalf: unsafeBitCast(r1, to: SIMD4<UInt32>.self))
        let lower = SIMD8<UInt32>(
            lowHalf: unsafeBitCast(r2, to: SIMD4<UInt32>.self), highHalf: unsafeBitCast(r3, to: SIMD4<UInt32>.self))
        // Pixels 0 and 2, then 1 and 3, of rows 0-1 and of rows 2-3.
        let evens = SIMD8<UInt32>(lowHalf: upper.evenHalf, highHalf: lower.evenHalf)
        let odds = SIMD8<UInt32>(lowHalf: upper.oddHalf, highHalf: lower.oddHalf)
        return (
            unsafeBitCast(evens.evenHalf, to: SIMD16<UInt8>.self), unsafeBitCast(odds.evenHalf, to: SIMD16<UInt8>.self),
            unsafeBitCast(evens.oddHalf, to: SIMD16<UInt8>.self), unsafeBitCast(odds.oddHalf, to: SIMD16<UInt8>.self)
        )
    }

    /// Four rows' carried pixels as the quad's byte lanes.
    @inline(__always)
    private static func bytes(_ pixels: (UInt32, UInt32, UInt32, UInt32)) -> SIMD16<UInt8> {
        unsafeBitCast(SIMD4(pixels.0, pixels.1, pixels.2, pixels.3), to: SIMD16<UInt8>.self)
    }

    /// Row k's pixel of the quad's byte lanes, for ``paeth4Row(_:_:from:to:left:upperLeft:)``.
    @inline(__always)
    private static func pixels(_ lanes: SIMD16<UInt8>, _ k: Int) -> UInt32 {
        unsafeBitCast(lanes, to: SIMD4<UInt32>.self)[k]
    }
}
