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

    /// Whether row `y` of `source` equals the row above (so its Up-filtered scanline is zeros).
    func repeatsRowAbove(_ y: Int, in source: UnsafeBufferPointer<UInt8>) -> Bool {
        guard y > 0 else { return false }
        let rowBytes = width &* 4
        // Safe: rows y - 1 and y lie inside the caller's width * height * 4 bytes.
        return memcmp(source.baseAddress! + y &* rowBytes, source.baseAddress! + (y &- 1) &* rowBytes, rowBytes) == 0
    }

    /// Writes row `y` as a Sub-filtered scanline (filter byte 1 and `rawRowBytes - 1` bytes) at
    /// `target`. Sub turns flat runs into zeros.
    func writeSubRow(_ y: Int, of source: UnsafeBufferPointer<UInt8>, to target: UnsafeMutablePointer<UInt8>) {
        let channels = self.channels
        target[0] = 1
        var d = 1
        let row = y &* width &* 4
        // Safe: source row y has width * 4 bytes; target has rawRowBytes.
        for x in 0..<width {
            let s = row &+ x &* 4
            let a = source[s &+ 3]
            if a == 255 {
                target[d] = source[s]; target[d &+ 1] = source[s &+ 1]; target[d &+ 2] = source[s &+ 2]
            } else if a == 0 {
                target[d] = 0; target[d &+ 1] = 0; target[d &+ 2] = 0
            } else {
                target[d] = PNGEncoder.unpremultiply(source[s], alpha: a)
                target[d &+ 1] = PNGEncoder.unpremultiply(source[s &+ 1], alpha: a)
                target[d &+ 2] = PNGEncoder.unpremultiply(source[s &+ 2], alpha: a)
            }
            if !rgb { target[d &+ 3] = a }
            d &+= channels
        }
        // Sub, right to left so each byte still sees its unfiltered left neighbour.
        var i = d &- 1
        while i >= 1 &+ channels {
            target[i] = target[i] &- target[i &- channels]
            i &-= 1
        }
    }
}
