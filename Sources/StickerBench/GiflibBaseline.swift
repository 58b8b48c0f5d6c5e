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
    func run() -> UInt8 { composite { canvas, _ in canvas?[0] ?? 0 } }

    /// The last canvas (premultiplied RGBA8), for the agreement check.
    func finalCanvas() -> [UInt8] {
        composite { canvas, count in canvas.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? [] }
    }

    /// One decode and composite; `body` gets the last canvas (nil when giflib failed) and its
    /// byte count.
    private func composite<Result>(_ body: (UnsafePointer<UInt8>?, Int) -> Result) -> Result {
        var width: Int32 = 0
        var height: Int32 = 0
        let canvas = bytes.withUnsafeBufferPointer { source in
            baseline_gif_composite(source.baseAddress, source.count, &buffers, &width, &height)
        }
        return body(canvas, Int(width) * Int(height) * 4)
    }
}
