/// One displayed state of an animation: the whole canvas after a stored frame is drawn.
public struct Frame: Sendable {
    /// The stored frame's metadata.
    public var info: FrameInfo
    /// Canvas width in pixels.
    public var width: Int
    /// Canvas height in pixels.
    public var height: Int
    /// `width * height * 4` bytes of premultiplied RGBA8, row-major, top row first.
    public var pixels: [UInt8]
    /// Problems found while decoding this frame's pixels (for example missing GIF data).
    public var warnings: [CodecWarning]

    /// Creates a frame.
    public init(info: FrameInfo, width: Int, height: Int, pixels: [UInt8], warnings: [CodecWarning] = []) {
        precondition(pixels.count == width * height * 4, "pixel buffer does not match the canvas")
        self.info = info
        self.width = width
        self.height = height
        self.pixels = pixels
        self.warnings = warnings
    }

    /// The premultiplied RGBA value at (`x`, `y`), which must be inside the canvas.
    public func pixel(x: Int, y: Int) -> PremultipliedRGBA {
        precondition((0..<width).contains(x) && (0..<height).contains(y), "(\(x), \(y)) is outside \(width)x\(height)")
        let o = (y * width + x) * 4
        return PremultipliedRGBA(r: pixels[o], g: pixels[o + 1], b: pixels[o + 2], a: pixels[o + 3])
    }
}

/// A premultiplied RGBA8 pixel: each colour channel is at most ``a``.
public struct PremultipliedRGBA: Sendable, Hashable, CustomStringConvertible {
    /// Red, premultiplied.
    public var r: UInt8
    /// Green, premultiplied.
    public var g: UInt8
    /// Blue, premultiplied.
    public var b: UInt8
    /// Alpha.
    public var a: UInt8

    /// Creates a pixel from premultiplied channels.
    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        self.r = r
        self.g = g
        self.b = b
        self.a = a
    }

    /// `(r,g,b,a)`.
    public var description: String { "(\(r),\(g),\(b),\(a))" }
}
