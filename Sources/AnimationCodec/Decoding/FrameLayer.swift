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
    /// Makes `storage` exactly `count` bytes, reusing its capacity; what it holds is left as it
    /// is (every decoder writes each byte of its layer: a GIF layer's unreached rows are cleared
    /// by the draw itself).
    static func prepare(_ storage: inout [UInt8], count: Int) {
        if storage.count > count { storage.removeLast(storage.count - count) }
        reserve(&storage, atLeast: count)
    }

    /// Makes `storage` at least `count` bytes and never shorter: for memory whose users are
    /// told how much of it to use (a GIF frame's indexes). Frames of varying sizes then reuse it
    /// as it is, where making it exactly each size zeroed the part regrown after a smaller
    /// frame, before the decoder overwrote it.
    static func reserve(_ storage: inout [UInt8], atLeast count: Int) {
        guard storage.count < count else { return }
        storage.append(contentsOf: repeatElement(0, count: count - storage.count))
    }
}
