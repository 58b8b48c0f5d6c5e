import StickerPack
import StickerPixels

/// The sticker browser's flow layout, as `MSStickerBrowserView` lays it out (see
/// docs/BROWSER-MODEL.md): a vertical grid with 16 pt side insets, 8 pt top and bottom insets, 16 pt
/// between items and between lines, square cells whose side depends on the sticker size and
/// the device class, and full rows justified.
public struct BrowserLayout: Sendable, Hashable {
    /// Left and right section inset, points.
    public static let sideInset = 16.0
    /// Top and bottom section inset, points.
    public static let verticalInset = 8.0
    /// Minimum space between items in a row, points.
    public static let interitemSpacing = 16.0
    /// Space between rows, points (not recoverable from the framework; modelled as 16).
    public static let lineSpacing = 16.0

    /// One visible cell.
    public struct Cell: Sendable, Hashable {
        /// The sticker's position in the pack.
        public var index: Int
        /// Row and column in the grid.
        public var row: Int, column: Int
        /// Top-left corner in points.
        public var x: Double, y: Double
        /// The cell in output pixels.
        public var pixels: PixelRect
        /// Whether the canvas cuts the cell off at the bottom.
        public var isClipped: Bool
    }

    /// The Messages view.
    public let view: ViewSize
    /// Compact or expanded.
    public let style: BrowserStyle
    /// The pack's sticker size.
    public let size: StickerSize
    /// Output pixels per point (1, 2 or 3).
    public let scale: Int
    /// The cell side in points.
    public let cellSide: Double
    /// Columns per row.
    public let columns: Int
    /// The horizontal space between cells of a full row, points.
    public let gap: Double
    /// The canvas in points.
    public let canvasWidth: Double, canvasHeight: Double
    /// The cells drawn (entirely or partly inside the canvas), in pack order.
    public let cells: [Cell]
    /// The number of stickers laid out.
    public let stickerCount: Int

    /// Lays out `stickerCount` stickers.
    /// - Parameters:
    ///   - compactHeight: the strip's height in compact style.
    ///   - showAll: in expanded style, grow the canvas downward until every sticker shows.
    public init(
        view: ViewSize, style: BrowserStyle, size: StickerSize, scale: Int, stickerCount: Int,
        compactHeight: CompactHeight = .default, showAll: Bool = false
    ) {
        self.view = view
        self.style = style
        self.size = size
        self.scale = scale
        self.stickerCount = stickerCount
        let side = BrowserLayout.cellSide(for: size, viewWidth: view.width)
        cellSide = side
        let content = view.width - 2 * BrowserLayout.sideInset
        let columns = max(
            1,
            Int(((content + BrowserLayout.interitemSpacing) / (side + BrowserLayout.interitemSpacing)).rounded(.down)))
        self.columns = columns
        gap = columns > 1 ? (content - Double(columns) * side) / Double(columns - 1) : 0
        let rows = (stickerCount + columns - 1) / columns
        canvasWidth = view.width
        switch style {
        case .compact:
            canvasHeight = compactHeight.points(inViewHeight: view.height)
        case .expanded:
            let needed =
                rows == 0
                ? 0
                : 2 * BrowserLayout.verticalInset + Double(rows) * side + Double(rows - 1) * BrowserLayout.lineSpacing
            canvasHeight = showAll ? max(view.height, needed) : view.height
        }
        var cells: [Cell] = []
        let sidePixels = Int((side * Double(scale)).rounded())
        let canvasPixelHeight = Int((canvasHeight * Double(scale)).rounded())
        for index in 0..<stickerCount {
            let row = index / columns
            let column = index % columns
            let x = BrowserLayout.sideInset + Double(column) * (side + gap)
            let y = BrowserLayout.verticalInset + Double(row) * (side + BrowserLayout.lineSpacing)
            guard y < canvasHeight else { break }
            let rect = PixelRect(
                x: Int((x * Double(scale)).rounded()), y: Int((y * Double(scale)).rounded()),
                width: sidePixels, height: sidePixels)
            cells.append(
                Cell(
                    index: index, row: row, column: column, x: x, y: y, pixels: rect,
                    isClipped: rect.y + rect.height > canvasPixelHeight))
        }
        self.cells = cells
    }

    /// The canvas width in output pixels.
    public var pixelWidth: Int { Int((canvasWidth * Double(scale)).rounded()) }
    /// The canvas height in output pixels.
    public var pixelHeight: Int { Int((canvasHeight * Double(scale)).rounded()) }

    /// The cell side for a sticker size: the small spec (60 / 85 / 136 pt) on 320 pt-wide
    /// screens, the standard spec (72 / 102 / 163 pt; small and regular inferred as the small
    /// spec x 1.2) on every other.
    public static func cellSide(for size: StickerSize, viewWidth: Double) -> Double {
        let small = viewWidth <= 320
        switch size {
        case .small: return small ? 60 : 72
        case .regular: return small ? 85 : 102
        case .large: return small ? 136 : 163
        }
    }

    /// Where a sticker of `width` x `height` pixels (supplied @3x) is drawn in `cell`: its
    /// natural size (pixels / 3 points), shrunk to fit the cell keeping its aspect ratio,
    /// centred.
    public func stickerRect(in cell: Cell, stickerWidth width: Int, height: Int) -> PixelRect {
        let naturalWidth = Double(width) / 3
        let naturalHeight = Double(height) / 3
        let fit = min(1, cellSide / max(naturalWidth, naturalHeight))
        let w = max(1, Int((naturalWidth * fit * Double(scale)).rounded()))
        let h = max(1, Int((naturalHeight * fit * Double(scale)).rounded()))
        return PixelRect(
            x: cell.pixels.x + (cell.pixels.width - w) / 2, y: cell.pixels.y + (cell.pixels.height - h) / 2,
            width: w, height: h)
    }
}
