/// One stored frame's own pixels, before compositing: premultiplied RGBA8 covering
/// ``rect`` (which may reach past the canvas for GIF; the compositor clips).
struct FrameLayer: Sendable {
    var rect: FrameRect
    /// `rect.width * rect.height * 4` bytes.
    var pixels: [UInt8]
    var warnings: [CodecWarning] = []
}

/// Reuse of layer buffers between frames, so the parallel path does not fault in fresh
/// memory for every frame.
enum LayerStorage {
    /// Makes `storage` exactly `count` bytes, reusing its capacity; zeroes it if asked (a
    /// GIF layer's unreached rows must be transparent; a PNG layer is fully overwritten).
    static func prepare(_ storage: inout [UInt8], count: Int, zeroed: Bool) {
        if storage.count > count {
            storage.removeLast(storage.count - count)
        } else if storage.count < count {
            storage.append(contentsOf: repeatElement(0, count: count - storage.count))
        }
        if zeroed {
            storage.withUnsafeMutableBytes { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) }
        }
    }
}
