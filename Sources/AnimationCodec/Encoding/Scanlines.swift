#if canImport(Glibc)
import Glibc
#endif

/// How premultiplied RGBA8 rows become PNG scanlines: straight alpha (or none, for RGB),
/// each row prefixed by its filter byte.
struct Scanlines: Sendable {
    /// Pixels per row.
    let width: Int
    /// Whether alpha is dropped (every pixel opaque).
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
            var r = UInt8(truncatingIfNeeded: packed), g = UInt8(truncatingIfNeeded: packed >> 8), b = UInt8(truncatingIfNeeded: packed >> 16)
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
}
