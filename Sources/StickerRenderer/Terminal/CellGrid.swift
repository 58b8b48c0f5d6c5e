import AnimationCodec
import StickerPixels

/// A picture as terminal cells: each cell shows two pixels, one above the other, with the
/// upper half block (foreground = top pixel, background = bottom pixel).
public struct CellGrid: Sendable, Hashable {
    /// One cell's two pixels; `nil` is transparent (the terminal's own background shows).
    public struct Cell: Sendable, Hashable {
        /// The upper pixel.
        public var top: RGB?
        /// The lower pixel.
        public var bottom: RGB?
        /// Creates a cell.
        public init(top: RGB?, bottom: RGB?) {
            self.top = top
            self.bottom = bottom
        }
    }

    /// An opaque 8-bit colour.
    public struct RGB: Sendable, Hashable {
        /// Red.
        public var r: UInt8
        /// Green.
        public var g: UInt8
        /// Blue.
        public var b: UInt8
        /// Creates a colour.
        public init(_ r: UInt8, _ g: UInt8, _ b: UInt8) {
            self.r = r
            self.g = g
            self.b = b
        }
    }

    /// Columns.
    public let columns: Int
    /// Text rows.
    public let rows: Int
    /// Cells, row-major.
    public var cells: [Cell]

    /// Cells for `image`, whose height is 2 x rows (an odd last pixel row pairs with
    /// transparency). A fully transparent pixel shows the terminal's own background; any other
    /// is composited over `backdrop`, the colour behind the picture (the terminal's background
    /// when it could be asked, else black): a terminal cannot blend, so a soft or translucent
    /// pixel shows as it would over that colour. A pixel of alpha `faintAlpha` or less shows
    /// the terminal's background too: over any backdrop it differs from it by at most its alpha
    /// in each channel, so with the writer's tolerance it would look the same, at a colour code's cost.
    public init(_ image: RGBAImage, backdrop: RGB = RGB(0, 0, 0), faintAlpha: UInt8 = 0) {
        columns = image.width
        rows = (image.height + 1) / 2
        var cells: [Cell] = []
        cells.reserveCapacity(columns * rows)
        func color(_ x: Int, _ y: Int) -> RGB? {
            guard y < image.height else { return nil }
            let p = image.pixel(x: x, y: y)
            guard p.a > faintAlpha else { return nil }
            // Premultiplied OVER the opaque backdrop, by BlendKernels' rule.
            let shown = BlendKernels.over(
                SIMD4(p.r, p.g, p.b, p.a), onto: SIMD4(backdrop.r, backdrop.g, backdrop.b, 255))
            return RGB(shown[0], shown[1], shown[2])
        }
        for row in 0..<rows {
            for x in 0..<columns { cells.append(Cell(top: color(x, 2 * row), bottom: color(x, 2 * row + 1))) }
        }
        self.cells = cells
    }

    /// The cell at (`column`, `row`).
    public subscript(column: Int, row: Int) -> Cell { cells[row * columns + column] }
}
