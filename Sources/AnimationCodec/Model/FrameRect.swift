/// A rectangle in pixels: a frame's as stored in the file (it may extend past a GIF's
/// canvas), or any area of a canvas. Drawing clips it.
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
    public func clipped(toWidth canvasWidth: Int, height canvasHeight: Int) -> FrameRect {
        let left = min(max(x, 0), canvasWidth)
        let top = min(max(y, 0), canvasHeight)
        let right = min(max(x + width, 0), canvasWidth)
        let bottom = min(max(y + height, 0), canvasHeight)
        return FrameRect(x: left, y: top, width: max(0, right - left), height: max(0, bottom - top))
    }

    /// Whether the rectangle covers no pixel.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// The pixels in both rectangles (empty, with no particular origin, when none are).
    func intersection(_ other: FrameRect) -> FrameRect {
        let left = max(x, other.x)
        let top = max(y, other.y)
        let right = min(x + width, other.x + other.width)
        let bottom = min(y + height, other.y + other.height)
        return FrameRect(x: left, y: top, width: max(0, right - left), height: max(0, bottom - top))
    }

    /// The smallest rectangle holding both (an empty one counts for nothing).
    public func union(_ other: FrameRect) -> FrameRect {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let left = min(x, other.x)
        let top = min(y, other.y)
        let right = max(x + width, other.x + other.width)
        let bottom = max(y + height, other.y + other.height)
        return FrameRect(x: left, y: top, width: right - left, height: bottom - top)
    }
}
