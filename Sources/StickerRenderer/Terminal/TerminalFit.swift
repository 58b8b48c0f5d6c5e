/// Where a picture goes in a box of terminal cells: the largest size that keeps its aspect
/// ratio (each cell is two square-ish pixels tall), never enlarged, centred.
public struct TerminalFit: Sendable, Hashable {
    /// The picture's size in pixels (width = columns used, height = 2 x rows used).
    public var pixelWidth: Int, pixelHeight: Int
    /// The top-left cell, 1-based.
    public var column: Int, row: Int

    /// Fits a `width` x `height` picture in `columns` x `rows` cells.
    public init(width: Int, height: Int, columns: Int, rows: Int) {
        let scale = min(1, min(Double(columns) / Double(width), Double(2 * rows) / Double(height)))
        pixelWidth = max(1, min(columns, Int((Double(width) * scale).rounded())))
        pixelHeight = max(1, min(2 * rows, Int((Double(height) * scale).rounded())))
        column = (columns - pixelWidth) / 2 + 1
        row = (rows - (pixelHeight + 1) / 2) / 2 + 1
    }

    /// Text rows used.
    public var rows: Int { (pixelHeight + 1) / 2 }
}
