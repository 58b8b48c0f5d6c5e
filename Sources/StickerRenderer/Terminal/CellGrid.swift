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
    /// transparency). A pixel with alpha under 128 is transparent; others show their straight
    /// colour (terminals cannot blend with their own background).
    public init(_ image: RGBAImage) {
        columns = image.width
        rows = (image.height + 1) / 2
        var cells: [Cell] = []
        cells.reserveCapacity(columns * rows)
        func color(_ x: Int, _ y: Int) -> RGB? {
            guard y < image.height else { return nil }
            let p = image.pixel(x: x, y: y)
            guard p.a >= 128 else { return nil }
            func straight(_ c: UInt8) -> UInt8 { p.a == 255 ? c : UInt8(min(255, (Int(c) * 255 + Int(p.a) / 2) / Int(p.a))) }
            return RGB(straight(p.r), straight(p.g), straight(p.b))
        }
        for row in 0..<rows {
            for x in 0..<columns { cells.append(Cell(top: color(x, 2 * row), bottom: color(x, 2 * row + 1))) }
        }
        self.cells = cells
    }

    /// The cell at (`column`, `row`).
    public subscript(column: Int, row: Int) -> Cell { cells[row * columns + column] }
}
