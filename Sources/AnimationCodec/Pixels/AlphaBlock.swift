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
}
