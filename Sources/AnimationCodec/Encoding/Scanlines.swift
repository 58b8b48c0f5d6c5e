#if canImport(Glibc)
    import Glibc
#endif

/// How premultiplied RGBA8 rows become PNG scanlines: straight alpha (or none, for RGB),
/// each row prefixed by its filter byte.
struct Scanlines: Sendable {
    /// Pixels per row.
    let width: Int
    /// Whether alpha is dropped: every pixel is opaque, so rows are written without reading
    /// or straightening alpha (a caller that declares translucent rows opaque gets their
    /// premultiplied colour).
    let rgb: Bool

    /// Bytes per pixel in the scanline.
    var channels: Int { rgb ? 3 : 4 }
    /// Bytes per scanline, filter byte included.
    var rawRowBytes: Int { width * channels + 1 }

    /// Whether the rows of `width` premultiplied pixels at `row` and `above` are equal (so the
    /// row's Up-filtered scanline is all zeros).
    func repeats(_ row: UnsafePointer<UInt8>, above: UnsafePointer<UInt8>) -> Bool {
        memcmp(row, above, width &* 4) == 0
    }

    /// Writes the row of `width` premultiplied pixels at `row` as a Sub-filtered scanline
    /// (filter byte 1 and `rawRowBytes - 1` bytes) at `target`. Sub turns flat runs into zeros.
    func writeSubRow(_ row: UnsafePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>) {
        if rgb { return writeOpaqueSubRow(UnsafeRawPointer(row), to: target) }
        let channels = self.channels
        target[0] = 1
        let row = UnsafeRawPointer(row)
        // One pass: straighten each pixel and subtract its left neighbour's straight value. A
        // pixel equal to its neighbour (flat runs) is all zeros without any arithmetic.
        var previousPacked: UInt32 = 0
        var previous: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        var d = 1
        // Safe: the row has width * 4 bytes; target has rawRowBytes = 1 + width * channels.
        for x in 0..<width {
            let packed = row.loadUnaligned(fromByteOffset: x &* 4, as: UInt32.self)
            if x > 0 && packed == previousPacked {
                target[d] = 0; target[d &+ 1] = 0; target[d &+ 2] = 0
                if !rgb { target[d &+ 3] = 0 }
                d &+= channels
                continue
            }
            let a = UInt8(truncatingIfNeeded: packed >> 24)
            var r = UInt8(truncatingIfNeeded: packed)
            var g = UInt8(truncatingIfNeeded: packed >> 8)
            var b = UInt8(truncatingIfNeeded: packed >> 16)
            if a == 0 {
                r = 0; g = 0; b = 0
            } else if a != 255 {
                r = PNGEncoder.unpremultiply(r, alpha: a)
                g = PNGEncoder.unpremultiply(g, alpha: a)
                b = PNGEncoder.unpremultiply(b, alpha: a)
            }
            target[d] = r &- previous.0; target[d &+ 1] = g &- previous.1; target[d &+ 2] = b &- previous.2
            if !rgb { target[d &+ 3] = a &- previous.3 }
            previous = (r, g, b, a)
            previousPacked = packed
            d &+= channels
        }
    }

    /// ``writeSubRow(_:to:)`` for RGB, where every pixel is opaque: nothing to straighten, so
    /// a pixel's Sub difference is a byte-wise subtraction, four pixels at a time. Each
    /// difference is stored as 4 bytes 3 apart (the next store overwrites the spare byte), the
    /// row's last pixel byte by byte so nothing lands past the scanline.
    private func writeOpaqueSubRow(_ row: UnsafeRawPointer, to target: UnsafeMutablePointer<UInt8>) {
        target[0] = 1
        let out = UnsafeMutableRawPointer(target + 1)
        // Safe: loads stay inside the row's width * 4 bytes (a 16-byte load at x reads pixels
        // x...x+3, and the loop keeps x + 4 < width); 4-byte stores at pixel x < width - 1 end
        // at byte 3x + 4 <= 3 * width of the scanline's pixel bytes.
        let first = row.loadUnaligned(as: SIMD4<UInt8>.self)
        if width == 1 {
            for c in 0..<3 { out.storeBytes(of: first[c], toByteOffset: c, as: UInt8.self) }
            return
        }
        out.storeBytes(of: first, as: SIMD4<UInt8>.self)
        var x = 1
        while x &+ 4 < width {
            let current = row.loadUnaligned(fromByteOffset: x &* 4, as: SIMD16<UInt8>.self)
            let left = row.loadUnaligned(fromByteOffset: (x &- 1) &* 4, as: SIMD16<UInt8>.self)
            let words = unsafeBitCast(current &- left, to: SIMD4<UInt32>.self)
            out.storeBytes(of: words[0], toByteOffset: x &* 3, as: UInt32.self)
            out.storeBytes(of: words[1], toByteOffset: (x &+ 1) &* 3, as: UInt32.self)
            out.storeBytes(of: words[2], toByteOffset: (x &+ 2) &* 3, as: UInt32.self)
            out.storeBytes(of: words[3], toByteOffset: (x &+ 3) &* 3, as: UInt32.self)
            x &+= 4
        }
        while x < width {
            let difference =
                row.loadUnaligned(fromByteOffset: x &* 4, as: SIMD4<UInt8>.self)
                &- row.loadUnaligned(fromByteOffset: (x &- 1) &* 4, as: SIMD4<UInt8>.self)
            if x &+ 1 < width {
                out.storeBytes(of: difference, toByteOffset: x &* 3, as: SIMD4<UInt8>.self)
            } else {
                out.storeBytes(of: difference[0], toByteOffset: x &* 3, as: UInt8.self)
                out.storeBytes(of: difference[1], toByteOffset: x &* 3 &+ 1, as: UInt8.self)
                out.storeBytes(of: difference[2], toByteOffset: x &* 3 &+ 2, as: UInt8.self)
            }
            x &+= 1
        }
    }
}
