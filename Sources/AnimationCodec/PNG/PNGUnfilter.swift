/// Reverses PNG's five row filters (None, Sub, Up, Average, Paeth).
///
/// Rows are raw pointers taken once per image: `row` holds `count` bytes after the filter
/// byte, `previous` the previous row of the same pass already unfiltered (zeros for the
/// first row). `distance` is the filter's byte distance, max(1, bits per pixel / 8).
enum PNGUnfilter {
    /// The filter type bytes.
    enum Filter: UInt8 {
        case none = 0
        case sub
        case up
        case average
        case paeth
    }

    /// Unfilters one row in place, with the 4-lane kernels for 4-byte pixels.
    /// - Throws: ``CodecError/malformed(format:reason:)`` for a filter byte above 4.
    static func unfilter(
        _ filterByte: UInt8, row: UnsafeMutablePointer<UInt8>, previous: UnsafePointer<UInt8>,
        count: Int, distance: Int
    ) throws(CodecError) {
        guard let filter = Filter(rawValue: filterByte) else {
            throw .malformed(format: .png, reason: "unknown row filter type \(filterByte)")
        }
        if distance == 4 {
            switch filter {
            case .none: return
            case .sub: sub4(row, count: count)
            case .up: up(row, previous, count: count)
            case .average: average4(row, previous, count: count)
            case .paeth: paeth4(row, previous, count: count)
            }
        } else {
            unfilterScalar(filter, row: row, previous: previous, count: count, distance: distance)
        }
    }

    /// Up rows a Paeth pair may have between its two rows
    /// (``paeth4Pair(_:upRowsBetween:rowStride:previous:count:)``, which adds them a pixel at a
    /// time).
    static let pairUpRowsBetween = 2

    /// Up rows a Paeth quad may have between each two of its rows
    /// (``paeth4Quad(_:paethRows:rowStride:previous:count:)``, which adds them 16 bytes at a
    /// time, as the Up kernel does). An encoder that picks each row's filter by its cost (zlib's
    /// adaptive filtering, as Pillow and libpng use it) writes a soft gradient as Paeth rows
    /// among runs of Up rows: with up to eight between, quads take 92% of
    /// `apng_618_bounce_full`'s Paeth rows and 78% of `apng_408_heart_bg`'s, against 82% and 67%
    /// with two (and a single row costs about twice a quad's instructions a pixel).
    static let quadUpRowsBetween = 8

    /// Unfilters the row at `line` (its filter byte, then `count` bytes; the next row's filter
    /// byte follows) and, where it is a Paeth row of 4-byte pixels followed in the pass by more
    /// Paeth rows with only Up rows between, those rows too, in one pass: four Paeth rows by
    /// ``paeth4Quad(_:paethRows:rowStride:previous:count:)``, each after at most
    /// ``quadUpRowsBetween`` Up rows, else two by
    /// ``paeth4Pair(_:upRowsBetween:rowStride:previous:count:)``, the second after at most
    /// ``pairUpRowsBetween``.
    /// - Parameter rowsLeft: rows of the pass from `line` on, `line`'s own included.
    /// - Returns: the rows unfiltered, 1 to 4 + 3 x ``quadUpRowsBetween``.
    /// - Throws: ``CodecError/malformed(format:reason:)`` for a filter byte above 4.
    static func unfilterRows(
        at line: UnsafeMutablePointer<UInt8>, previous: UnsafePointer<UInt8>, count: Int, distance: Int,
        rowsLeft: Int
    ) throws(CodecError) -> Int {
        let paeth = Filter.paeth.rawValue
        if distance == 4, line[0] == paeth {
            // Safe: only the filter bytes of the pass's next `rowsLeft - 1` rows are read.
            let stride = count &+ 1
            // The Paeth rows found, as rows after `line`; the first is `line` itself.
            var paethRows = SIMD4<Int>()
            var found = 1
            var index = 1
            var between = 0
            while found < 4, index < rowsLeft, between <= quadUpRowsBetween {
                let filter = line[index &* stride]
                if filter == paeth {
                    paethRows[found] = index
                    found &+= 1
                    between = 0
                } else if filter == Filter.up.rawValue {
                    between &+= 1
                } else {
                    break
                }
                index &+= 1
            }
            if found == 4 {
                paeth4Quad(line + 1, paethRows: paethRows, rowStride: stride, previous: previous, count: count)
                return paethRows[3] &+ 1
            }
            if found >= 2, paethRows[1] &- 1 <= pairUpRowsBetween {
                paeth4Pair(
                    line + 1, upRowsBetween: paethRows[1] &- 1, rowStride: stride, previous: previous, count: count)
                return paethRows[1] &+ 1
            }
        }
        try unfilter(line[0], row: line + 1, previous: previous, count: count, distance: distance)
        return 1
    }

    /// The byte-at-a-time reference for every filter and distance; the vector kernels are
    /// tested against it.
    static func unfilterScalar(
        _ filter: Filter, row: UnsafeMutablePointer<UInt8>, previous: UnsafePointer<UInt8>,
        count: Int, distance: Int
    ) {
        // Safe: every index is in 0..<count, and i - distance is read only when i >= distance.
        switch filter {
        case .none:
            return
        case .sub:
            var i = distance
            while i < count { row[i] &+= row[i &- distance]; i &+= 1 }
        case .up:
            up(row, previous, count: count)
        case .average:
            var i = 0
            while i < count {
                let left = i >= distance ? UInt16(row[i &- distance]) : 0
                row[i] &+= UInt8(truncatingIfNeeded: (left &+ UInt16(previous[i])) >> 1)
                i &+= 1
            }
        case .paeth:
            var i = 0
            while i < count {
                let a = i >= distance ? row[i &- distance] : 0
                let c = i >= distance ? previous[i &- distance] : 0
                row[i] &+= paethPredictor(a, previous[i], c)
                i &+= 1
            }
        }
    }

    /// Paeth's predictor: whichever of left, up and upper-left is nearest to left + up - upper-left.
    @inline(__always)
    static func paethPredictor(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let ia = Int16(a)
        let ib = Int16(b)
        let ic = Int16(c)
        let pa = (ib &- ic).magnitude
        let pb = (ia &- ic).magnitude
        let pc = (ia &+ ib &- 2 &* ic).magnitude
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }

    static func up(_ row: UnsafeMutablePointer<UInt8>, _ previous: UnsafePointer<UInt8>, count: Int) {
        // Safe: both rows hold `count` bytes. Whole 16-byte blocks first, then the tail.
        var i = 0
        let raw = UnsafeMutableRawPointer(row)
        let above = UnsafeRawPointer(previous)
        while i &+ 16 <= count {
            let sum =
                raw.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
                &+ above.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
            raw.storeBytes(of: sum, toByteOffset: i, as: SIMD16<UInt8>.self)
            i &+= 16
        }
        while i < count { row[i] &+= previous[i]; i &+= 1 }
    }

    private static func sub4(_ row: UnsafeMutablePointer<UInt8>, count: Int) {
        // Safe: count is a multiple of 4 for 4-byte pixels; each step reads its own bytes.
        // Four pixels a vector: their running sums by two shifted adds (the vector moved up by
        // one pixel, then the result moved up by two), plus the block before's last pixel,
        // broadcast. Only that add and the broadcast chain one block to the next.
        let raw = UnsafeMutableRawPointer(row)
        var carried = SIMD16<UInt8>()
        var i = 0
        while i &+ 16 <= count {
            var sums = raw.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
            var pixels = unsafeBitCast(sums, to: SIMD4<UInt32>.self)
            sums &+= unsafeBitCast(SIMD4<UInt32>(0, pixels[0], pixels[1], pixels[2]), to: SIMD16<UInt8>.self)
            pixels = unsafeBitCast(sums, to: SIMD4<UInt32>.self)
            sums &+= unsafeBitCast(SIMD4<UInt32>(0, 0, pixels[0], pixels[1]), to: SIMD16<UInt8>.self) &+ carried
            raw.storeBytes(of: sums, toByteOffset: i, as: SIMD16<UInt8>.self)
            let last = unsafeBitCast(sums, to: SIMD4<UInt32>.self)[3]
            carried = unsafeBitCast(SIMD4<UInt32>(repeating: last), to: SIMD16<UInt8>.self)
            i &+= 16
        }
        var left = unsafeBitCast(carried, to: SIMD4<UInt32>.self)[0]
        while i &+ 4 <= count {
            let sum =
                unsafeBitCast(left, to: SIMD4<UInt8>.self)
                &+ raw.loadUnaligned(fromByteOffset: i, as: SIMD4<UInt8>.self)
            raw.storeBytes(of: sum, toByteOffset: i, as: SIMD4<UInt8>.self)
            left = unsafeBitCast(sum, to: UInt32.self)
            i &+= 4
        }
    }

    private static func average4(_ row: UnsafeMutablePointer<UInt8>, _ previous: UnsafePointer<UInt8>, count: Int) {
        // x + floor((a + b) / 2) with only two dependent steps per pixel. The rounded-up
        // average of complements, avg(~a, ~b) = ceil((510 - a - b) / 2), is 255 minus the
        // floored one, which makes the next left pixel's complement ~a' = avg(~a, ~b) - x
        // (mod 256). Widening, adding 1 and halving is the form the compiler emits as one
        // rounded byte-average instruction (pavgb); the kernel carries ~a and stores ~(~a).
        let raw = UnsafeMutableRawPointer(row)
        let above = UnsafeRawPointer(previous)
        var notLeft = SIMD4<UInt8>(repeating: 255)
        var i = 0
        while i &+ 4 <= count {
            let notUp = ~above.loadUnaligned(fromByteOffset: i, as: SIMD4<UInt8>.self)
            let x = raw.loadUnaligned(fromByteOffset: i, as: SIMD4<UInt8>.self)
            let roundedUp =
                (SIMD4<UInt16>(truncatingIfNeeded: notLeft) &+ SIMD4<UInt16>(truncatingIfNeeded: notUp) &+ 1) &>> 1
            notLeft = SIMD4<UInt8>(truncatingIfNeeded: roundedUp) &- x
            raw.storeBytes(of: ~notLeft, toByteOffset: i, as: SIMD4<UInt8>.self)
            i &+= 4
        }
    }

    private static func paeth4(_ row: UnsafeMutablePointer<UInt8>, _ previous: UnsafePointer<UInt8>, count: Int) {
        var a: UInt32 = 0
        var c: UInt32 = 0
        paeth4RowApart(row, previous, from: 0, to: count, left: &a, upperLeft: &c)
    }

    /// How far, in bytes, the second row of a Paeth pair trails the first: far enough that the
    /// pixels it reads from the first row were stored several steps earlier, so reading them
    /// back never waits on the store (8 bytes behind, the pair ran only a tenth faster than one
    /// row at a time; 16 and 32 bytes behind, 1.7 times as fast).
    static let pairLag = 32

    /// Unfilters two Paeth rows of 4-byte pixels together, and the Up rows between them:
    /// `first` (whose row above is `previous`), then `upRowsBetween` Up rows, then the second
    /// Paeth row, each `rowStride` bytes after the one before.
    ///
    /// One row's pixels form a chain, each waiting for the one to its left, and a chain of
    /// vector steps runs far below the vector units' throughput. The second row's pixel at byte
    /// `i` needs only its own left neighbour and the row above it up to byte `i`, so it can run
    /// ``pairLag`` bytes behind the first: one 8-lane vector holds a pixel of each row, and every
    /// step moves both chains on. An Up row between only adds the row above it, so the rows
    /// between are finished on the way, at the second row's byte, from the first row's.
    @inline(never)
    static func paeth4Pair(
        _ first: UnsafeMutablePointer<UInt8>, upRowsBetween: Int, rowStride: Int, previous: UnsafePointer<UInt8>,
        count: Int
    ) {
        let lag = pairLag
        let second = first + (upRowsBetween &+ 1) &* rowStride
        // The row above the second: the first, or the last Up row between.
        let aboveSecond = UnsafePointer(second - rowStride)
        guard count >= 2 &* lag else {
            paeth4(first, previous, count: count)
            for row in stride(from: 1, through: upRowsBetween, by: 1) {
                up(first + row &* rowStride, UnsafePointer(first + (row &- 1) &* rowStride), count: count)
            }
            paeth4(second, aboveSecond, count: count)
            return
        }
        // The first row alone until the second has its lag; then both; then the second alone.
        var left: UInt32 = 0
        var upperLeft: UInt32 = 0
        paeth4RowApart(first, previous, from: 0, to: lag, left: &left, upperLeft: &upperLeft)
        // Lanes 0-3: the first row at byte i; lanes 4-7: the second at byte i - lag, whose
        // left and upper-left start as zeros.
        var a = widened(left)
        var c = widened(upperLeft)
        // Safe: i < count in the first row, and i - lag >= 0 in every row after it; count is a
        // multiple of 4.
        let row0 = UnsafeMutableRawPointer(first)
        let row1 = UnsafeMutableRawPointer(second)
        let above = UnsafeRawPointer(previous)
        var i = lag
        while i &+ 4 <= count {
            // The second row's up: the first row's finished pixel plus each Up row's, stored
            // back into each Up row.
            var up = row0.loadUnaligned(fromByteOffset: i &- lag, as: SIMD4<UInt8>.self)
            var between = row0
            for _ in 0..<upRowsBetween {
                between += rowStride
                up &+= between.loadUnaligned(fromByteOffset: i &- lag, as: SIMD4<UInt8>.self)
                between.storeBytes(of: up, toByteOffset: i &- lag, as: SIMD4<UInt8>.self)
            }
            let b = SIMD8<Int16>(
                truncatingIfNeeded: SIMD8<UInt8>(
                    lowHalf: above.loadUnaligned(fromByteOffset: i, as: SIMD4<UInt8>.self), highHalf: up))
            let x = SIMD8<Int16>(
                truncatingIfNeeded: SIMD8<UInt8>(
                    lowHalf: row0.loadUnaligned(fromByteOffset: i, as: SIMD4<UInt8>.self),
                    highHalf: row1.loadUnaligned(fromByteOffset: i &- lag, as: SIMD4<UInt8>.self)))
            a = paethStep(x, left: a, up: b, upperLeft: c)
            c = b
            let bytes = SIMD8<UInt8>(truncatingIfNeeded: a)
            row0.storeBytes(of: bytes.lowHalf, toByteOffset: i, as: SIMD4<UInt8>.self)
            row1.storeBytes(of: bytes.highHalf, toByteOffset: i &- lag, as: SIMD4<UInt8>.self)
            i &+= 4
        }
        // The Up rows' last `lag` bytes, then the second row's.
        let tail = count &- lag
        for row in stride(from: 1, through: upRowsBetween, by: 1) {
            up(first + row &* rowStride + tail, UnsafePointer(first + (row &- 1) &* rowStride + tail), count: lag)
        }
        left = secondPixel(a)
        upperLeft = secondPixel(c)
        paeth4RowApart(second, aboveSecond, from: tail, to: count, left: &left, upperLeft: &upperLeft)
    }

    /// The pair's lanes with a packed pixel (as it was in memory, little-endian) in the first
    /// row's, zeros in the second's. Made as one 8-lane vector: made of two halves, it split the
    /// pair's loop into two 4-lane chains.
    @inline(__always)
    private static func widened(_ pixel: UInt32) -> SIMD8<Int16> {
        SIMD8<Int16>(truncatingIfNeeded: unsafeBitCast(UInt64(pixel), to: SIMD8<UInt8>.self))
    }

    /// The second row's pixel of the pair's lanes (0...255 each), packed as in memory.
    @inline(__always)
    private static func secondPixel(_ lanes: SIMD8<Int16>) -> UInt32 {
        UInt32(truncatingIfNeeded: unsafeBitCast(SIMD8<UInt8>(truncatingIfNeeded: lanes), to: UInt64.self) &>> 32)
    }

    /// One Paeth step on whole pixels: `x` plus the predictor of `a` (left), `b` (up) and `c`
    /// (upper-left), lane by lane, as values 0...255.
    ///
    /// Each pixel waits for the one to its left (a), so the time per pixel is the length of
    /// the chain of operations that depend on a; everything that needs only b and c is
    /// computed beside it. With e = b - c the three distances are pa = |e|, pb = |a - c| and
    /// pc = |a - (2c - b)|, and the spec's choice becomes two tests of a against thresholds
    /// known before a is:
    /// - a wins (pa <= pb and pa <= pc) unless a lies strictly between b and 3c - 2b: the two
    ///   intervals of radius |e| around c and around 2c - b, side by side. When e = 0 the
    ///   interval is empty and a always wins.
    /// - otherwise b wins (pb <= pc) when a is on b's side of the midpoint (3c - b) / 2 of c and
    ///   2c - b, the midpoint itself included: above it when b > c, at or below it when b < c.
    ///   One test, a > threshold, serves both: where b < c the two candidates are swapped
    ///   beforehand.
    ///
    /// The three candidates x + a, x + b and x + c are formed early and the tests pick one with
    /// masks; the masks come from the sign bits of differences, which keeps the compiler from
    /// merging the candidates back into one late add. Five dependent steps. Values stay within
    /// -510...765, so 16-bit lanes never overflow.
    @inline(__always)
    private static func paethStep<Lanes: SIMD>(_ x: Lanes, left a: Lanes, up b: Lanes, upperLeft c: Lanes) -> Lanes
    where Lanes.Scalar == Int16 {
        // Masks are sign bits of differences (all ones where negative), which stay plain
        // vector arithmetic in this generic body, where `pointwiseMin` would be a call.
        let far = c &+ c &+ (c &- b &- b)  // 3c - 2b
        let bBelowFar = (b &- far) &>> 15
        let low = far ^ ((b ^ far) & bBelowFar)  // min(b, far)
        let high = b ^ ((b ^ far) & bBelowFar)  // max(b, far)
        let bBelowC = (b &- c) &>> 15
        // b > c: b wins when a >= ceil((3c - b) / 2), i.e. a > floor((3c - b - 1) / 2);
        // b < c: b wins when a <= floor((3c - b) / 2), so c wins when a is above that.
        let threshold = ((far &+ b) &+ ((bBelowC & 1) &- 1)) &>> 1
        let withA = (x &+ a) & 0xFF
        let withB = (x &+ b) & 0xFF
        let withC = (x &+ c) & 0xFF
        // XORing with `bOrC` turns either of x + b, x + c into the other.
        let bOrC = withB ^ withC
        let ifNotAbove = withC ^ (bBelowC & bOrC)  // x + c, or x + b where b < c
        let aLoses = ((low &- a) & (a &- high)) &>> 15  // low < a < high: all ones
        let isAbove = (threshold &- a) &>> 15  // a > threshold: all ones
        let withBOrC = ifNotAbove ^ (isAbove & bOrC)
        return withA ^ (aLoses & (withBOrC ^ withA))
    }
}
