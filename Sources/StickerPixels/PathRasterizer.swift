#if canImport(Glibc)
    import Glibc
#endif

/// Fills paths with the nonzero rule: 16 sub-scanlines a pixel, each span's ends covered by the
/// fraction of the pixel they reach, so an edge's coverage is its area to about 1/16.
public enum PathRasterizer {
    /// Sub-scanlines a pixel row.
    static let subsamples = 16

    /// The coverage of `path`, clipped to a canvas `width` × `height`.
    public static func coverage(of path: VectorPath, width: Int, height: Int) -> CoverageMask {
        var edges: [(top: Double, bottom: Double, x: Double, slope: Double, winding: Int)] = []
        var minX = Double.infinity
        var maxX = -Double.infinity
        var minY = Double.infinity
        var maxY = -Double.infinity
        for contour in path.contours where contour.count >= 2 {
            for index in contour.indices {
                let a = contour[index]
                let b = contour[(index + 1) % contour.count]
                // A point that is not finite (from a hostile outline) adds no edge and no extent.
                guard a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite else { continue }
                minX = min(minX, a.x); maxX = max(maxX, a.x); minY = min(minY, a.y); maxY = max(maxY, a.y)
                guard a.y != b.y else { continue }
                let (upper, lower, winding) = a.y < b.y ? (a, b, 1) : (b, a, -1)
                edges.append((upper.y, lower.y, upper.x, (lower.x - upper.x) / (lower.y - upper.y), winding))
            }
        }
        // The box, clamped to the canvas as Doubles before it becomes whole pixels.
        guard !edges.isEmpty else { return CoverageMask(x: 0, y: 0, width: 0, height: 0, coverage: []) }
        func clamp(_ value: Double, _ limit: Int) -> Int { Int(min(max(value, 0), Double(limit))) }
        let left = clamp(minX.rounded(.down), width)
        let right = clamp(maxX.rounded(.up), width)
        let top = clamp(minY.rounded(.down), height)
        let bottom = clamp(maxY.rounded(.up), height)
        guard left < right, top < bottom else { return CoverageMask(x: 0, y: 0, width: 0, height: 0, coverage: []) }
        let boxWidth = right - left
        var mask = CoverageMask(
            x: left, y: top, width: boxWidth, height: bottom - top,
            coverage: [UInt8](repeating: 0, count: boxWidth * (bottom - top)))
        var row = [Float](repeating: 0, count: boxWidth + 1)
        var crossings: [(x: Double, winding: Int)] = []
        let share = Float(1) / Float(subsamples)
        for pixelRow in top..<bottom {
            for index in row.indices { row[index] = 0 }
            for sub in 0..<subsamples {
                let sampleY = Double(pixelRow) + (Double(sub) + 0.5) / Double(subsamples)
                crossings.removeAll(keepingCapacity: true)
                for edge in edges where edge.top <= sampleY && sampleY < edge.bottom {
                    crossings.append((edge.x + (sampleY - edge.top) * edge.slope, edge.winding))
                }
                guard crossings.count >= 2 else { continue }
                crossings.sort { $0.x < $1.x }
                var winding = 0
                for index in 0..<crossings.count - 1 {
                    winding += crossings[index].winding
                    guard winding != 0 else { continue }
                    addSpan(
                        from: crossings[index].x - Double(left), to: crossings[index + 1].x - Double(left),
                        weight: share, into: &row)
                }
            }
            let base = (pixelRow - top) * boxWidth
            for column in 0..<boxWidth {
                mask.coverage[base + column] = UInt8(min(255, max(0, (row[column] * 255).rounded())))
            }
        }
        return mask
    }

    /// Adds `weight` × the covered fraction of each pixel between `start` and `end` (box columns).
    private static func addSpan(from start: Double, to end: Double, weight: Float, into row: inout [Float]) {
        let limit = Double(row.count - 1)
        let a = min(max(start, 0), limit)
        let b = min(max(end, 0), limit)
        guard a < b else { return }
        let first = Int(a)
        let last = Int(b)
        if first == last {
            row[first] += weight * Float(b - a)
            return
        }
        row[first] += weight * Float(Double(first + 1) - a)
        if first + 1 < last { for column in first + 1..<last { row[column] += weight } }
        if last < row.count - 1 { row[last] += weight * Float(b - Double(last)) }
    }
}
