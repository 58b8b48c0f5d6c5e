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

    private static func up(_ row: UnsafeMutablePointer<UInt8>, _ previous: UnsafePointer<UInt8>, count: Int) {
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
        // Safe: count is a multiple of 4 for 4-byte pixels; each step reads the pixel before.
        let raw = UnsafeMutableRawPointer(row)
        var left = SIMD4<UInt8>()
        var i = 0
        while i &+ 4 <= count {
            left &+= raw.loadUnaligned(fromByteOffset: i, as: SIMD4<UInt8>.self)
            raw.storeBytes(of: left, toByteOffset: i, as: SIMD4<UInt8>.self)
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
        // Each pixel waits for the one to its left (a), so the time per pixel is the length of
        // the chain of operations that depend on a; everything that needs only b (up) and c
        // (upper-left) is computed beside it. With e = b - c the three distances are
        // pa = |e|, pb = |a - c| and pc = |a - (2c - b)|, and the spec's choice becomes two
        // tests of a against thresholds known before a is:
        // - a wins (pa <= pb and pa <= pc) unless a lies strictly between b and 3c - 2b:
        //   the two intervals of radius |e| around c and around 2c - b, side by side. When
        //   e = 0 the interval is empty and a always wins.
        // - otherwise b wins (pb <= pc) when a is on b's side of the midpoint (3c - b) / 2 of
        //   c and 2c - b, the midpoint itself included: above it when b > c, at or below it
        //   when b < c. One test, a > threshold, serves both: where b < c the two candidates
        //   are swapped beforehand.
        // The three candidates x + a, x + b and x + c are formed early and the tests pick one
        // with masks; the masks come from the sign bits of differences, which keeps the
        // compiler from merging the candidates back into one late add. Five dependent steps.
        // Values stay within -510...765, so 16-bit lanes never overflow.
        let raw = UnsafeMutableRawPointer(row)
        let above = UnsafeRawPointer(previous)
        var a = SIMD4<Int16>()
        var c = SIMD4<Int16>()
        var i = 0
        while i &+ 4 <= count {
            let b = SIMD4<Int16>(truncatingIfNeeded: above.loadUnaligned(fromByteOffset: i, as: SIMD4<UInt8>.self))
            let x = SIMD4<Int16>(truncatingIfNeeded: raw.loadUnaligned(fromByteOffset: i, as: SIMD4<UInt8>.self))
            let far = c &+ c &+ (c &- b &- b)  // 3c - 2b
            let low = pointwiseMin(b, far)
            let high = pointwiseMax(b, far)
            let bBelowC = SIMD4<Int16>.zero.replacing(with: -1, where: c .> b)
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
            a = withA ^ (aLoses & (withBOrC ^ withA))
            c = b
            raw.storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: a), toByteOffset: i, as: SIMD4<UInt8>.self)
            i &+= 4
        }
    }
}
