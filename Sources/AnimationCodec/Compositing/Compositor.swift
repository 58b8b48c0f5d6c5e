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

    /// A transparent canvas. Its clearing is pending like a dispose to background: a first
    /// frame that covers the whole canvas writes every pixel itself (see ``drawRows``), so the
    /// memory is only zeroed when some other frame comes first (on a still, zeroing would be a
    /// measurable share of the decode).
    ///
    /// With `storage` of exactly the canvas's size, that memory becomes the canvas as it is
    /// (whatever it holds is cleared or overwritten like the empty canvas): no allocation and
    /// no fresh pages. Any other `storage` is dropped.
    init(width: Int, height: Int, reusing storage: [UInt8] = []) {
        self.width = width
        self.height = height
        let count = width * height * 4
        canvas =
            storage.count == count
            ? storage : [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
        pendingDispose = (.background, FrameRect(x: 0, y: 0, width: width, height: height))
    }

    /// Hands the canvas over (for the caller to reuse) and leaves this compositor empty.
    mutating func takeCanvas() -> [UInt8] {
        defer { canvas = [] }
        return canvas
    }

    /// Whether frame `index` of `frames` replaces every pixel of a `width` x `height` canvas:
    /// it covers the canvas exactly, the rectangle the dispose before it clears (the empty
    /// canvas before frame 0, or a whole-canvas frame disposed to background), so ``drawRows``
    /// draws it with SOURCE; and it does not dispose to PREVIOUS (nothing to save). Known from
    /// the headers alone, so a worker can draw such a frame whole, ahead of the compositor.
    static func replacesCanvas(_ frames: [FrameInfo], at index: Int, width: Int, height: Int) -> Bool {
        let whole = FrameRect(x: 0, y: 0, width: width, height: height)
        guard frames[index].rect == whole, frames[index].dispose != .previous else { return false }
        guard index > 0 else { return true }
        let before = frames[index - 1]
        return before.dispose == .background && before.rect.clipped(toWidth: width, height: height) == whole
    }

    /// Takes `pixels` (a whole premultiplied canvas, frame `info` drawn on nothing) as the
    /// canvas, when the frame replaces every pixel here (see ``replacesCanvas(_:at:width:height:)``,
    /// checked again against this compositor's state): drawing it would give those very
    /// pixels. Returns the previous canvas's memory for reuse, or nil (nothing changed) when
    /// the frame does not replace the canvas; the caller then draws it.
    mutating func replaceCanvas(with pixels: [UInt8], info: FrameInfo) -> [UInt8]? {
        let whole = FrameRect(x: 0, y: 0, width: width, height: height)
        guard pixels.count == width * height * 4, info.rect == whole, replacesClearedRect(info) else { return nil }
        pendingDispose = (info.dispose, whole)
        defer { canvas = pixels }
        return canvas
    }

    /// Whether the pending dispose clears exactly frame `info`'s rectangle, which lies inside
    /// the canvas, and the frame does not dispose to PREVIOUS (that would save the cleared
    /// pixels before they exist): drawn there, the frame replaces every pixel it covers.
    private func replacesClearedRect(_ info: FrameInfo) -> Bool {
        guard let (op, rect) = pendingDispose else { return false }
        return op == .background && rect == info.rect && info.rect.clipped(toWidth: width, height: height) == info.rect
            && info.dispose != .previous
    }

    /// Draws a decoded layer with `info`'s blend op, after disposing of the previous frame.
    mutating func draw(_ layer: FrameLayer, info: FrameInfo, rowBuffer: UnsafeMutablePointer<UInt32>) {
        guard layer.pixels.count == layer.rect.width * layer.rect.height * 4 else {
            // Nothing to draw, so nothing may replace what the dispose would clear.
            drawRows(info: info, rowBuffer: rowBuffer, mayReplaceClearedRect: false) { _ in }
            return
        }
        layer.pixels.withUnsafeBytes { source in
            let pixels = source.baseAddress!.assumingMemoryBound(to: UInt32.self)
            drawRows(info: info, rowBuffer: rowBuffer) { target in
                target.copyRows(from: pixels, width: layer.rect.width, height: layer.rect.height)
            }
        }
    }

    /// Disposes of the previous frame, saves what frame `info` will cover if its dispose op
    /// is PREVIOUS, then lets `body` write the frame's rows through a ``RowTarget`` on the
    /// canvas. `rowBuffer` must hold `info.rect.width` pixels.
    ///
    /// When the pending dispose clears exactly this frame's rectangle (the empty canvas before
    /// a full first frame, or a GIF's restore to background before a frame of the same size),
    /// the clear is skipped and the frame is drawn with SOURCE: OVER onto transparent pixels
    /// gives the source pixels, bit for bit. `body` must then write every pixel of the
    /// rectangle or fail: the PNG decoders throw on short data, and a GIF frame that stops
    /// short clears the rest of a direct target itself (``GIFImageDecoder/draw``).
    mutating func drawRows<Result>(
        info: FrameInfo, rowBuffer: UnsafeMutablePointer<UInt32>,
        mayReplaceClearedRect: Bool = true,
        _ body: (RowTarget) -> Result
    ) -> Result {
        let clip = info.rect.clipped(toWidth: width, height: height)
        var blend = info.blend
        var replaced = FrameRect(x: 0, y: 0, width: 0, height: 0)
        if mayReplaceClearedRect, replacesClearedRect(info) {
            pendingDispose = nil
            blend = .source
        } else if mayReplaceClearedRect, blend == .over, info.dispose != .previous,
            let (op, cleared) = pendingDispose, op == .background
        {
            // Where the frame overlaps the rectangle the dispose clears, drawing it with
            // SOURCE gives what OVER on the cleared pixels would: that part is not cleared.
            // (A frame that disposes to PREVIOUS saves what it covers, cleared, first.)
            replaced = cleared.intersection(clip)
        }
        disposePrevious(except: replaced)
        if info.dispose == .previous { save(clip) }
        pendingDispose = (info.dispose, clip)
        let (width, height) = (self.width, self.height)
        return canvas.withUnsafeMutableBytes { bytes in
            body(
                .canvas(
                    bytes.baseAddress!.assumingMemoryBound(to: UInt32.self), width: width, height: height,
                    rect: info.rect, blend: blend, rowBuffer: rowBuffer, replacing: replaced))
        }
    }

    /// Applies the pending dispose op, but for a BACKGROUND clear leaves the pixels of `kept`
    /// (part of the cleared rectangle) to the frame drawn next, which replaces them.
    private mutating func disposePrevious(except kept: FrameRect) {
        guard let (op, rect) = pendingDispose, !rect.isEmpty else { return }
        let width = self.width
        let rowBytes = rect.width * 4
        switch op {
        case .none:
            return
        case .background:
            canvas.withUnsafeMutableBytes { target in
                func clear(row y: Int, from left: Int, to right: Int) {
                    guard left < right else { return }
                    (target.baseAddress! + (y * width + left) * 4).initializeMemory(
                        as: UInt8.self, repeating: 0, count: (right - left) * 4)
                }
                for y in rect.y..<(rect.y + rect.height) {
                    if kept.isEmpty || y < kept.y || y >= kept.y + kept.height {
                        clear(row: y, from: rect.x, to: rect.x + rect.width)
                    } else {
                        clear(row: y, from: rect.x, to: kept.x)
                        clear(row: y, from: kept.x + kept.width, to: rect.x + rect.width)
                    }
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

    /// Copies the canvas under `rect` (inside the canvas) into `saved`, row after row. The
    /// rows are copied through pointers taken once: appending array slices row by row
    /// retained and released the canvas's storage for every row, 3-4% of a decode's time on a
    /// sticker that disposes every other frame to PREVIOUS. `saved` grows uninitialized, only
    /// for a larger rectangle.
    private mutating func save(_ rect: FrameRect) {
        let rowBytes = rect.width * 4
        let count = rect.height * rowBytes
        guard count > 0 else { return }  // nothing to restore: the dispose skips an empty rect
        if saved.count < count {
            saved = [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
        }
        let width = self.width
        canvas.withUnsafeBytes { source in
            saved.withUnsafeMutableBytes { target in
                for row in 0..<rect.height {
                    (target.baseAddress! + row * rowBytes).copyMemory(
                        from: source.baseAddress! + ((rect.y + row) * width + rect.x) * 4, byteCount: rowBytes)
                }
            }
        }
    }
}
