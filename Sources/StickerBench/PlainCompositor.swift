import AnimationCodec
import CBaselines

/// The baselines' compositor: the dispose rules around a plain per-pixel C draw
/// (`baseline_draw`) that premultiplies and blends one pixel at a time, with no fast paths.
struct PlainCompositor {
    let width: Int
    let height: Int
    private(set) var canvas: [UInt8]
    private var saved: [UInt8] = []
    private var pending: FrameInfo?

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        canvas = [UInt8](repeating: 0, count: width * height * 4)
    }

    /// Draws straight RGBA8 `pixels` covering `info.rect` (clipped to the canvas).
    mutating func draw(straight pixels: [UInt8], info: FrameInfo) {
        let (width, height) = (Int32(self.width), Int32(self.height))
        if let previous = pending {
            switch previous.dispose {
            case .none: break
            case .background:
                let r = previous.rect
                baseline_clear(&canvas, width, height, Int32(r.x), Int32(r.y), Int32(r.width), Int32(r.height))
            case .previous: canvas = saved
            }
        }
        if info.dispose == .previous { saved = canvas }
        pending = info
        let r = info.rect
        baseline_draw(&canvas, width, height, pixels, Int32(r.x), Int32(r.y), Int32(r.width), Int32(r.height),
                      info.blend == .over ? 1 : 0)
    }
}
