/// Applies frames to a canvas the way browsers display APNG and GIF animations.
///
/// Before a frame is drawn, the previous frame's dispose op is applied to that frame's
/// rectangle: NONE keeps it, BACKGROUND clears it to transparent, PREVIOUS restores what
/// was under it. The canvas starts transparent, so PREVIOUS on the first frame clears, and
/// the last frame's dispose op is never shown. Holds at most the canvas and one saved
/// rectangle.
struct Compositor {
    let width: Int
    let height: Int
    /// The displayed canvas, premultiplied RGBA8.
    private(set) var canvas: [UInt8]
    private var saved: [UInt8] = []
    private var pendingDispose: (op: DisposeOp, rect: FrameRect)?

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
        canvas = [UInt8](repeating: 0, count: width * height * 4)
    }

    /// Draws `layer` with `info`'s blend op, after disposing of the previous frame.
    mutating func draw(_ layer: FrameLayer, info: FrameInfo) {
        let width = self.width
        disposePrevious()
        let clip = layer.rect.clipped(toWidth: width, height: height)
        if info.dispose == .previous { save(clip) }
        pendingDispose = (info.dispose, clip)
        guard !clip.isEmpty, layer.pixels.count == layer.rect.width * layer.rect.height * 4 else { return }
        let rowBytes = clip.width * 4
        layer.pixels.withUnsafeBytes { source in
            canvas.withUnsafeMutableBytes { target in
                // Safe: `clip` lies inside both the canvas and the layer's rectangle.
                for row in 0..<clip.height {
                    let sourceOffset = ((clip.y - layer.rect.y + row) * layer.rect.width + (clip.x - layer.rect.x)) * 4
                    let targetOffset = ((clip.y + row) * width + clip.x) * 4
                    let from = source.baseAddress! + sourceOffset, to = target.baseAddress! + targetOffset
                    switch info.blend {
                    case .source: to.copyMemory(from: from, byteCount: rowBytes)
                    case .over: BlendKernels.overSIMD(from, onto: to, count: clip.width)
                    }
                }
            }
        }
    }

    private mutating func disposePrevious() {
        guard let (op, rect) = pendingDispose, !rect.isEmpty else { return }
        let width = self.width
        let rowBytes = rect.width * 4
        switch op {
        case .none:
            return
        case .background:
            canvas.withUnsafeMutableBytes { target in
                for row in 0..<rect.height {
                    (target.baseAddress! + ((rect.y + row) * width + rect.x) * 4).initializeMemory(as: UInt8.self, repeating: 0, count: rowBytes)
                }
            }
        case .previous:
            saved.withUnsafeBytes { source in
                canvas.withUnsafeMutableBytes { target in
                    for row in 0..<rect.height {
                        (target.baseAddress! + ((rect.y + row) * width + rect.x) * 4)
                            .copyMemory(from: source.baseAddress! + row * rowBytes, byteCount: rowBytes)
                    }
                }
            }
        }
    }

    private mutating func save(_ rect: FrameRect) {
        let rowBytes = rect.width * 4
        saved.removeAll(keepingCapacity: true)
        saved.reserveCapacity(rect.height * rowBytes)
        for row in 0..<rect.height {
            let start = ((rect.y + row) * width + rect.x) * 4
            saved.append(contentsOf: canvas[start..<(start + rowBytes)])
        }
    }
}
