/// A rectangle in canvas pixels, as stored in the file (it may extend past a GIF's canvas).
public struct FrameRect: Sendable, Hashable, CustomStringConvertible {
    /// Left edge.
    public var x: Int
    /// Top edge.
    public var y: Int
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Creates a rectangle.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// `WxH+X+Y`, the notation ImageMagick and gifsicle print.
    public var description: String { "\(width)x\(height)+\(x)+\(y)" }

    /// The part of this rectangle inside a `width` x `height` canvas (possibly empty).
    func clipped(toWidth canvasWidth: Int, height canvasHeight: Int) -> FrameRect {
        let left = min(max(x, 0), canvasWidth), top = min(max(y, 0), canvasHeight)
        let right = min(max(x + width, 0), canvasWidth), bottom = min(max(y + height, 0), canvasHeight)
        return FrameRect(x: left, y: top, width: max(0, right - left), height: max(0, bottom - top))
    }

    /// Whether the rectangle covers no pixel.
    var isEmpty: Bool { width <= 0 || height <= 0 }
}
