/// How much of each pixel a filled ``VectorPath`` covers, in a box of the canvas.
public struct CoverageMask: Sendable, Hashable {
    /// The box's left column on the canvas.
    public var x: Int
    /// The box's top row on the canvas.
    public var y: Int
    /// The box's width.
    public var width: Int
    /// The box's height.
    public var height: Int
    /// Coverage 0-255 a pixel, row-major.
    public var coverage: [UInt8]

    /// The coverage of canvas pixel (`column`, `row`): 0 outside the box.
    public func value(column: Int, row: Int) -> UInt8 {
        let cx = column - x
        let cy = row - y
        guard cx >= 0, cy >= 0, cx < width, cy < height else { return 0 }
        return coverage[cy * width + cx]
    }
}
