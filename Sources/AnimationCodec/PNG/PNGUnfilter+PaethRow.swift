extension PNGUnfilter {
    /// Unfilters bytes `start..<end` of a Paeth row of 4-byte pixels, carrying the pixel to the
    /// left and the one above it in `left` and `upperLeft` (packed as loaded from memory; zeros
    /// before the first pixel).
    ///
    /// A row is one chain: each pixel waits for the one to its left. What needs only the row
    /// above and the filtered bytes (``PaethByteTerms``) is found four pixels at a time, in one
    /// 16-byte vector; then ``PaethByteTerms/step(left:)`` runs once a pixel on the whole
    /// vector, with the pixel to the left in every lane, and is right in that pixel's own four
    /// lanes, from which masks put the block together.
    @inline(__always)
    static func paeth4Row(
        _ row: UnsafeMutablePointer<UInt8>, _ previous: UnsafePointer<UInt8>, from start: Int, to end: Int,
        left: inout UInt32, upperLeft: inout UInt32
    ) {
        let raw = UnsafeMutableRawPointer(row)
        let above = UnsafeRawPointer(previous)
        let lane0 = SIMD4<UInt32>(~0, 0, 0, 0)
        let lane1 = SIMD4<UInt32>(0, ~0, 0, 0)
        let lane2 = SIMD4<UInt32>(0, 0, ~0, 0)
        let lane3 = SIMD4<UInt32>(0, 0, 0, ~0)
        var a = left
        var c = upperLeft
        var i = start
        // Safe: every access lies within start..<end of both rows, a multiple of 4 bytes long.
        while i &+ 16 <= end {
            let b = above.loadUnaligned(fromByteOffset: i, as: SIMD4<UInt32>.self)
            let terms = PaethByteTerms(
                raw.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self), up: bytes(b),
                upperLeft: bytes(SIMD4(c, b[0], b[1], b[2])))
            let r0 = words(terms.step(left: bytes(SIMD4(repeating: a))))
            let r1 = words(terms.step(left: bytes(SIMD4(repeating: r0[0]))))
            let r2 = words(terms.step(left: bytes(SIMD4(repeating: r1[1]))))
            let r3 = words(terms.step(left: bytes(SIMD4(repeating: r2[2]))))
            let block = r0 & lane0 | r1 & lane1 | r2 & lane2 | r3 & lane3
            raw.storeBytes(of: block, toByteOffset: i, as: SIMD4<UInt32>.self)
            a = r3[3]
            c = b[3]
            i &+= 16
        }
        // The last one to three pixels, each in every lane.
        while i &+ 4 <= end {
            let b = above.loadUnaligned(fromByteOffset: i, as: UInt32.self)
            let x = raw.loadUnaligned(fromByteOffset: i, as: UInt32.self)
            let terms = PaethByteTerms(
                bytes(SIMD4(repeating: x)), up: bytes(SIMD4(repeating: b)), upperLeft: bytes(SIMD4(repeating: c)))
            a = words(terms.step(left: bytes(SIMD4(repeating: a))))[0]
            raw.storeBytes(of: a, toByteOffset: i, as: UInt32.self)
            c = b
            i &+= 4
        }
        left = a
        upperLeft = c
    }

    /// ``paeth4Row(_:_:from:to:left:upperLeft:)`` out of line, for a whole row and for the pair's
    /// first and last bytes: inlined into the decoder's row walk, the vector conversions of the
    /// kernels became calls, and inlined twice into the pair, it left the pair's own 4-byte
    /// loads and stores as calls.
    @inline(never)
    static func paeth4RowApart(
        _ row: UnsafeMutablePointer<UInt8>, _ previous: UnsafePointer<UInt8>, from start: Int, to end: Int,
        left: inout UInt32, upperLeft: inout UInt32
    ) {
        paeth4Row(row, previous, from: start, to: end, left: &left, upperLeft: &upperLeft)
    }

    /// Four packed pixels as their sixteen bytes.
    @inline(__always)
    private static func bytes(_ pixels: SIMD4<UInt32>) -> SIMD16<UInt8> {
        unsafeBitCast(pixels, to: SIMD16<UInt8>.self)
    }

    /// Sixteen bytes as four packed pixels.
    @inline(__always)
    private static func words(_ bytes: SIMD16<UInt8>) -> SIMD4<UInt32> {
        unsafeBitCast(bytes, to: SIMD4<UInt32>.self)
    }
}
