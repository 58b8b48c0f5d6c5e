/// Premultiplied Porter-Duff OVER on rows of RGBA8 pixels: for every channel,
/// `dst = src + round(dst * (255 - srcAlpha) / 255)`.
///
/// Two versions of the one kernel: ``overScalar(_:onto:count:)``, one channel at a time and
/// easy to check, and ``overSIMD(_:onto:count:)``, four pixels at a time with block fast
/// paths. Tests prove they agree on every (source, alpha, destination) triple.
public enum BlendKernels {
    /// `round(x * y / 255)` for 8-bit x and y, exactly.
    @inlinable @inline(__always)
    static func multiply255(_ x: UInt32, _ y: UInt32) -> UInt32 {
        let t = x &* y &+ 128
        return (t &+ (t &>> 8)) &>> 8
    }

    /// One premultiplied pixel OVER another, by the rule of every kernel here: each channel
    /// `source + round(destination * (255 - source alpha) / 255)`. For drawing code that works
    /// a pixel at a time (masks, rotation, terminal cells); rows go through the row kernels.
    @inlinable
    public static func over(_ source: SIMD4<UInt8>, onto destination: SIMD4<UInt8>) -> SIMD4<UInt8> {
        let inverse = 255 &- UInt32(source[3])
        var result = source
        for c in 0..<4 {
            result[c] = UInt8(truncatingIfNeeded: UInt32(source[c]) &+ multiply255(UInt32(destination[c]), inverse))
        }
        return result
    }

    /// `value` times `coverage / 255`, rounded: a premultiplied channel (alpha included) under
    /// a mask's coverage, so a masked pixel stays premultiplied.
    @inlinable
    public static func scaled(_ value: UInt8, by coverage: UInt8) -> UInt8 {
        UInt8(truncatingIfNeeded: multiply255(UInt32(value), UInt32(coverage)))
    }

    /// A premultiplied pixel under a mask's `coverage`: every channel ``scaled(_:by:)``.
    @inlinable
    public static func scaled(_ pixel: SIMD4<UInt8>, by coverage: UInt8) -> SIMD4<UInt8> {
        SIMD4(
            scaled(pixel[0], by: coverage), scaled(pixel[1], by: coverage), scaled(pixel[2], by: coverage),
            scaled(pixel[3], by: coverage))
    }

    /// The reference kernel: `count` pixels of `source` OVER `destination`, one channel at a time.
    /// - Warning: both pointers must hold `count * 4` bytes; the regions must not overlap.
    public static func overScalar(_ source: UnsafeRawPointer, onto destination: UnsafeMutableRawPointer, count: Int) {
        let s = source.assumingMemoryBound(to: UInt8.self)
        let d = destination.assumingMemoryBound(to: UInt8.self)
        for p in 0..<count {
            let o = p &* 4
            let inverse = 255 &- UInt32(s[o &+ 3])
            for c in 0..<4 {
                d[o &+ c] = UInt8(truncatingIfNeeded: UInt32(s[o &+ c]) &+ multiply255(UInt32(d[o &+ c]), inverse))
            }
        }
    }

    /// The fast kernel: four pixels per step as `SIMD16` vectors. A block whose four source
    /// alphas are all 0 is skipped and one whose alphas are all 255 is copied; the test is
    /// done on two scalar `UInt64` words, which measured faster than a vector compare.
    /// - Warning: both pointers must hold `count * 4` bytes; the regions must not overlap.
    public static func overSIMD(_ source: UnsafeRawPointer, onto destination: UnsafeMutableRawPointer, count: Int) {
        over(source, onto: destination, count: count, premultiplyingSource: false)
    }

    /// OVER on one block of four premultiplied pixels. As in
    /// ``Premultiplication/premultiplyBlock(_:)``, the destination's even bytes (red, blue) and
    /// odd bytes (green, alpha) are spread into 16-bit lanes by a mask and a shift, and each
    /// lane is multiplied by its pixel's `255 - alpha`, spread into both halves of the pixel's
    /// 32-bit word: no lane is widened by a generic conversion, which the compiler left as a
    /// call.
    @inline(__always)
    static func overBlock(_ s: SIMD16<UInt8>, _ d: SIMD16<UInt8>) -> SIMD16<UInt8> {
        let inverse = 255 &- unsafeBitCast(s, to: SIMD4<UInt32>.self) &>> 24
        let scale = unsafeBitCast(inverse | inverse &<< 16, to: SIMD8<UInt16>.self)
        let words = unsafeBitCast(d, to: SIMD8<UInt16>.self)
        let redBlue = Premultiplication.scaledLanes(words & 0x00FF, scale)
        let greenAlpha = Premultiplication.scaledLanes(words &>> 8, scale)
        return s &+ unsafeBitCast(redBlue | greenAlpha &<< 8, to: SIMD16<UInt8>.self)
    }

    /// Premultiplies `count` straight RGBA8 pixels and draws them OVER `destination` in one
    /// pass: equal to ``Premultiplication/premultiplyRow(_:into:count:)`` followed by
    /// ``overSIMD(_:onto:count:)``, without the intermediate row. Blocks of four transparent
    /// pixels are skipped, opaque ones copied.
    /// - Warning: `source` holds `count * 4` bytes, `destination` too; no overlap.
    public static func premultiplyOver(
        straight source: UnsafeRawPointer, onto destination: UnsafeMutableRawPointer, count: Int
    ) {
        over(source, onto: destination, count: count, premultiplyingSource: true)
    }

    /// The one block loop behind ``overSIMD(_:onto:count:)`` and
    /// ``premultiplyOver(straight:onto:count:)``. Opaque and transparent blocks look the same
    /// straight or premultiplied, so only mixed blocks (and the tail) premultiply first.
    @inline(__always)
    private static func over(
        _ source: UnsafeRawPointer, onto destination: UnsafeMutableRawPointer, count: Int,
        premultiplyingSource: Bool
    ) {
        var p = 0
        // Safe: each step touches bytes o ..< o + 16 with p + 4 <= count.
        while p &+ 4 <= count {
            let o = p &* 4
            let lo = source.loadUnaligned(fromByteOffset: o, as: UInt64.self)
            let hi = source.loadUnaligned(fromByteOffset: o &+ 8, as: UInt64.self)
            p &+= 4
            switch AlphaBlock(lo: lo, hi: hi) {
            case .transparent:
                // Runs of blocks (margins, the body) are followed eight pixels at a time.
                p = AlphaBlock.followRun(source, into: destination, from: p, count: count, opaque: false)
            case .opaque:
                destination.storeBytes(of: lo, toByteOffset: o, as: UInt64.self)
                destination.storeBytes(of: hi, toByteOffset: o &+ 8, as: UInt64.self)
                p = AlphaBlock.followRun(source, into: destination, from: p, count: count, opaque: true)
            case .mixed:
                var s = source.loadUnaligned(fromByteOffset: o, as: SIMD16<UInt8>.self)
                if premultiplyingSource { s = Premultiplication.premultiplyBlock(s) }
                let d = destination.loadUnaligned(fromByteOffset: o, as: SIMD16<UInt8>.self)
                destination.storeBytes(of: overBlock(s, d), toByteOffset: o, as: SIMD16<UInt8>.self)
            }
        }
        while p < count {
            var pixel = source.loadUnaligned(fromByteOffset: p &* 4, as: UInt32.self)
            if premultiplyingSource { pixel = Premultiplication.premultiplyPacked(pixel) }
            withUnsafeBytes(of: pixel) { overScalar($0.baseAddress!, onto: destination + p &* 4, count: 1) }
            p &+= 1
        }
    }
}
