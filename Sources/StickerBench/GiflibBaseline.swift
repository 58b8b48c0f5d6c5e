import AnimationCodec
import CBaselines

/// The GIF baseline, as a plain C harness runs giflib: `DGifSlurp` reads every image, then
/// each is drawn through a 32-bit palette straight into a canvas kept between runs
/// (`baseline_gif_composite`).
final class GiflibBaseline {
    let bytes: [UInt8]
    let info: AnimationInfo
    private var buffers = baseline_buffers()

    init?(bytes: [UInt8], info: AnimationInfo) {
        guard info.format == .gif else { return nil }
        self.bytes = bytes
        self.info = info
    }

    deinit { baseline_buffers_free(&buffers) }

    /// Decodes and composites every frame once; returns a byte of the last canvas so the work
    /// cannot be optimised away.
    func run() -> UInt8 {
        var width: Int32 = 0, height: Int32 = 0
        return bytes.withUnsafeBufferPointer { source in
            baseline_gif_composite(source.baseAddress, source.count, &buffers, &width, &height)?[0] ?? 0
        }
    }

    /// The last canvas (premultiplied RGBA8), for the agreement check.
    func finalCanvas() -> [UInt8] {
        var width: Int32 = 0, height: Int32 = 0
        return bytes.withUnsafeBufferPointer { source in
            guard let canvas = baseline_gif_composite(source.baseAddress, source.count, &buffers, &width, &height) else { return [] }
            return Array(UnsafeBufferPointer(start: canvas, count: Int(width) * Int(height) * 4))
        }
    }
}
