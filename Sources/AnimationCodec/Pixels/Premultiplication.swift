/// Exact integer conversions between straight and premultiplied 8-bit colour.
public enum Premultiplication {
    /// `round(color * alpha / 255)`, exact for every pair of 8-bit inputs, with no division
    /// and no floating point: for t = c·a + 128, (t + t >> 8) >> 8 equals ⌊c·a/255 + 1/2⌋.
    @inlinable @inline(__always)
    public static func premultiply(_ color: UInt8, alpha: UInt8) -> UInt8 {
        let t = UInt32(color) &* UInt32(alpha) &+ 128
        return UInt8(truncatingIfNeeded: (t &+ (t &>> 8)) &>> 8)
    }

    /// Premultiplies a pixel packed as `r | g << 8 | b << 16 | a << 24` (RGBA in memory on a
    /// little-endian machine). Opaque and transparent pixels take a shortcut.
    @inlinable @inline(__always)
    public static func premultiplyPacked(_ pixel: UInt32) -> UInt32 {
        let a = pixel &>> 24
        if a == 255 { return pixel }
        if a == 0 { return 0 }
        // Red and blue share one multiply in separate 16-bit lanes, then green.
        var rb = (pixel & 0x00FF_00FF) &* a &+ 0x0080_0080
        rb = ((rb &+ ((rb &>> 8) & 0x00FF_00FF)) &>> 8) & 0x00FF_00FF
        var g = ((pixel &>> 8) & 0xFF) &* a &+ 128
        g = (g &+ (g &>> 8)) &>> 8
        return rb | g &<< 8 | a &<< 24
    }

    /// Reduces a 16-bit sample to 8 bits with rounding: `round(v * 255 / 65535)`.
    @inlinable @inline(__always)
    public static func reduce16(_ value: UInt16) -> UInt8 {
        UInt8(truncatingIfNeeded: (UInt32(value) &* 255 &+ 32895) &>> 16)
    }

    /// Packs straight RGBA into a premultiplied `UInt32` (r in the low byte).
    @inlinable @inline(__always)
    public static func packPremultiplied(r: UInt8, g: UInt8, b: UInt8, a: UInt8) -> UInt32 {
        premultiplyPacked(UInt32(r) | UInt32(g) &<< 8 | UInt32(b) &<< 16 | UInt32(a) &<< 24)
    }

    /// Premultiplies four straight RGBA8 pixels in one 16-byte vector, exactly as
    /// ``premultiply(_:alpha:)``: the even bytes (red, blue) and the odd bytes (green,
    /// alpha) are spread into 16-bit lanes by a mask and a shift, and each lane is multiplied
    /// by its pixel's alpha, broadcast from the top byte of the pixel's 32-bit word. The alpha
    /// lane's multiplier is 255, which the rounding gives back unchanged, so every lane goes
    /// through the same arithmetic (no lane is masked out afterwards, which lets the compiler
    /// keep all of it in vector registers).
    @inlinable @inline(__always)
    static func premultiplyBlock(_ pixels: SIMD16<UInt8>) -> SIMD16<UInt8> {
        let words = unsafeBitCast(pixels, to: SIMD8<UInt16>.self)
        let alpha = unsafeBitCast(pixels, to: SIMD4<UInt32>.self) &>> 24
        let redBlueScale = unsafeBitCast(alpha | alpha &<< 16, to: SIMD8<UInt16>.self)
        let greenAlphaScale = unsafeBitCast(alpha | 0x00FF_0000, to: SIMD8<UInt16>.self)
        let redBlue = scaledLanes(words & 0x00FF, redBlueScale)
        let greenAlpha = scaledLanes(words &>> 8, greenAlphaScale)
        return unsafeBitCast(redBlue | greenAlpha &<< 8, to: SIMD16<UInt8>.self)
    }

    /// `round(value * scale / 255)` in every 16-bit lane, for 8-bit values and scales, exactly
    /// as ``premultiply(_:alpha:)`` (t = value·scale + 128 is at most 65,153 and t + t >> 8 at
    /// most 65,407: no lane overflows). Written with lane-wise operators only: a high-half
    /// multiply by 257 would be one instruction, but SIMD types' widening conversions are
    /// generic functions the compiler may leave as calls.
    @inlinable @inline(__always)
    static func scaledLanes(_ value: SIMD8<UInt16>, _ scale: SIMD8<UInt16>) -> SIMD8<UInt16> {
        let t = value &* scale &+ 128
        return (t &+ (t &>> 8)) &>> 8
    }

    /// Bytes of blocks premultiplied from a mixed block on, before the next block is classified.
    @usableFromInline static let mixedRunBytes = 64

    /// Bytes of a mixed run that follows another (a partly transparent body, not an edge).
    @usableFromInline static let longMixedRunBytes = 256

    /// Premultiplies `count` straight RGBA8 pixels from `source` into `destination`, four at
    /// a time: a block whose alphas are all 255 is copied, one whose alphas are all 0 is
    /// zeroed (whatever its colour bytes), and a mixed block is multiplied with the three
    /// after it (the fifteen after it when it follows such a run). Sticker rows are mostly
    /// such blocks, in long runs (the transparent margins, the opaque body), so a run is then
    /// followed eight pixels at a time. The regions may be the same but must not partly
    /// overlap.
    @inlinable
    public static func premultiplyRow(_ source: UnsafeRawPointer, into destination: UnsafeMutableRawPointer, count: Int)
    {
        var p = 0
        let blocksEnd = (count &* 4) & ~15
        // How far the next mixed run goes: longer while runs follow each other.
        var mixedRun = mixedRunBytes
        // Safe: every access is within p * 4 ..< count * 4.
        while p &+ 4 <= count {
            let o = p &* 4
            let lo = source.loadUnaligned(fromByteOffset: o, as: UInt64.self)
            let hi = source.loadUnaligned(fromByteOffset: o &+ 8, as: UInt64.self)
            p &+= 4
            switch AlphaBlock(lo: lo, hi: hi) {
            case .opaque:
                destination.storeBytes(of: lo, toByteOffset: o, as: UInt64.self)
                destination.storeBytes(of: hi, toByteOffset: o &+ 8, as: UInt64.self)
                p = AlphaBlock.followRun(source, into: destination, from: p, count: count, opaque: true)
                mixedRun = mixedRunBytes
            case .transparent:
                destination.storeBytes(of: 0, toByteOffset: o, as: UInt64.self)
                destination.storeBytes(of: 0, toByteOffset: o &+ 8, as: UInt64.self)
                p = AlphaBlock.followRun(
                    source, into: destination, from: p, count: count, opaque: false, clearing: true)
                mixedRun = mixedRunBytes
            case .mixed:
                // Mixed blocks come in runs (a soft edge, a shadow), and the block kernel is
                // exact for any block, so the next three go through it unclassified (the test
                // costs about half a block's arithmetic), the next fifteen where this run
                // follows another (a partly transparent body).
                let end = min(o &+ mixedRun, blocksEnd)
                mixedRun = longMixedRunBytes
                var b = o
                repeat {
                    let block = premultiplyBlock(source.loadUnaligned(fromByteOffset: b, as: SIMD16<UInt8>.self))
                    destination.storeBytes(of: block, toByteOffset: b, as: SIMD16<UInt8>.self)
                    b &+= 16
                } while b < end
                p = b &>> 2
            }
        }
        while p < count {
            let pixel = source.loadUnaligned(fromByteOffset: p &* 4, as: UInt32.self)
            destination.storeBytes(of: premultiplyPacked(pixel), toByteOffset: p &* 4, as: UInt32.self)
            p &+= 1
        }
    }
}
