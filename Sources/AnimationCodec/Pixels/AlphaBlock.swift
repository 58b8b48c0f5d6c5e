/// The alphas of a block of four RGBA8 pixels (16 bytes), read as two `UInt64` words: the
/// test the SIMD kernels use to skip or copy whole blocks, which measured faster than a
/// vector compare.
@usableFromInline
enum AlphaBlock {
    /// Every pixel has alpha 0.
    case transparent
    /// Every pixel has alpha 255.
    case opaque
    /// Anything else.
    case mixed

    @usableFromInline static let alphaMask: UInt64 = 0xFF00_0000_FF00_0000

    /// Classifies the block whose bytes are `lo` (pixels 0-1) and `hi` (pixels 2-3).
    @inlinable @inline(__always)
    init(lo: UInt64, hi: UInt64) {
        if (lo | hi) & Self.alphaMask == 0 {
            self = .transparent
        } else if (lo & hi) & Self.alphaMask == Self.alphaMask {
            self = .opaque
        } else {
            self = .mixed
        }
    }

    /// Continues a run of opaque or transparent pixels from pixel `start`, eight pixels at a
    /// time while all eight alphas are 255 (or all 0); returns where the run stopped. Opaque
    /// pixels are copied to `destination`; transparent ones are written there as zeros when
    /// `clearing` (whatever their colour bytes), else left as they are (OVER draws nothing).
    @inlinable @inline(__always)
    static func followRun(
        _ source: UnsafeRawPointer, into destination: UnsafeMutableRawPointer, from start: Int, count: Int,
        opaque: Bool, clearing: Bool = false
    ) -> Int {
        // Transparent pixels become zeros, whatever their colour bytes.
        let keep: UInt64 = opaque ? ~0 : 0
        var p = start
        // Safe: every access is within p * 4 ..< (p + 8) * 4 <= count * 4.
        while p &+ 8 <= count {
            let o = p &* 4
            let w0 = source.loadUnaligned(fromByteOffset: o, as: UInt64.self)
            let w1 = source.loadUnaligned(fromByteOffset: o &+ 8, as: UInt64.self)
            let w2 = source.loadUnaligned(fromByteOffset: o &+ 16, as: UInt64.self)
            let w3 = source.loadUnaligned(fromByteOffset: o &+ 24, as: UInt64.self)
            let stillInRun = opaque ? w0 & w1 & w2 & w3 & alphaMask == alphaMask : (w0 | w1 | w2 | w3) & alphaMask == 0
            guard stillInRun else { break }
            if opaque || clearing {
                destination.storeBytes(of: w0 & keep, toByteOffset: o, as: UInt64.self)
                destination.storeBytes(of: w1 & keep, toByteOffset: o &+ 8, as: UInt64.self)
                destination.storeBytes(of: w2 & keep, toByteOffset: o &+ 16, as: UInt64.self)
                destination.storeBytes(of: w3 & keep, toByteOffset: o &+ 24, as: UInt64.self)
            }
            p &+= 8
        }
        return p
    }
}
