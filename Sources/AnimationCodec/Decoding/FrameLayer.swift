/// One stored frame's own pixels, before compositing: premultiplied RGBA8 covering
/// ``rect`` (which may reach past the canvas for GIF; the compositor clips).
struct FrameLayer: Sendable {
    var rect: FrameRect
    /// `rect.width * rect.height * 4` bytes.
    var pixels: [UInt8]
    var warnings: [CodecWarning] = []
}
