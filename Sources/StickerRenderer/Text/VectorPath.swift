/// A filled outline in pixel coordinates (y down): closed contours of straight segments, with
/// curves flattened as they are added. What glyph outlines and message bubbles are drawn from.
public struct VectorPath: Sendable, Hashable {
    /// The contours; each is closed back to its first point when filled.
    public private(set) var contours: [[SIMD2<Double>]] = []

    /// An empty path.
    public init() {}

    /// Starts a new contour at `point`.
    public mutating func move(to point: SIMD2<Double>) {
        if let last = contours.last, last.count < 2 { contours.removeLast() }
        contours.append([point])
    }

    /// A straight segment to `point`.
    public mutating func line(to point: SIMD2<Double>) {
        if contours.isEmpty { contours.append([point]); return }
        contours[contours.count - 1].append(point)
    }

    /// A quadratic Bézier to `point` through `control`.
    public mutating func quadratic(to point: SIMD2<Double>, control: SIMD2<Double>) {
        let start = currentPoint
        let steps = Self.steps(start, control, point)
        for step in 1...steps {
            let t = Double(step) / Double(steps), u = 1 - t
            line(to: u * u * start + 2 * u * t * control + t * t * point)
        }
    }

    /// A cubic Bézier to `point` through `control1` and `control2`.
    public mutating func cubic(to point: SIMD2<Double>, control1: SIMD2<Double>, control2: SIMD2<Double>) {
        let start = currentPoint
        let steps = Self.steps(start, control1, control2, point)
        for step in 1...steps {
            let t = Double(step) / Double(steps), u = 1 - t
            line(to: u * u * u * start + 3 * u * u * t * control1 + 3 * u * t * t * control2 + t * t * t * point)
        }
    }

    /// A circular arc around `centre` from `startAngle` to `endAngle` (radians, y down, so a
    /// growing angle turns clockwise on screen), joined to the current point by a line.
    public mutating func arc(centre: SIMD2<Double>, radius: Double, from startAngle: Double, to endAngle: Double) {
        let wanted = (abs(endAngle - startAngle) * max(radius, 1)).squareRoot() * 2
        let steps = wanted.isFinite ? Int(min(max(wanted, 2), 1024)) : 2
        for step in 0...steps {
            let angle = startAngle + (endAngle - startAngle) * Double(step) / Double(steps)
            let point = centre + radius * SIMD2(cos(angle), sin(angle))
            if step == 0 && contours.last == nil { move(to: point) } else { line(to: point) }
        }
    }

    /// The last point added (the origin for an empty path).
    public var currentPoint: SIMD2<Double> { contours.last?.last ?? .zero }

    /// Every point moved by `offset`.
    public func translated(by offset: SIMD2<Double>) -> VectorPath {
        var moved = self
        moved.contours = contours.map { $0.map { $0 + offset } }
        return moved
    }

    /// Segments enough that the flattened curve stays within about a tenth of a pixel.
    private static func steps(_ points: SIMD2<Double>...) -> Int {
        var length = 0.0
        for index in 1..<points.count {
            let d = points[index] - points[index - 1]
            length += (d * d).sum().squareRoot()
        }
        let wanted = length.squareRoot() * 1.5
        return wanted.isFinite ? Int(min(max(wanted, 2), 128)) : 2
    }
}

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
        let cx = column - x, cy = row - y
        guard cx >= 0, cy >= 0, cx < width, cy < height else { return 0 }
        return coverage[cy * width + cx]
    }
}

/// Fills paths with the nonzero rule: 16 sub-scanlines a pixel, each span's ends covered by the
/// fraction of the pixel they reach, so an edge's coverage is its area to about 1/16.
public enum PathRasterizer {
    /// Sub-scanlines a pixel row.
    static let subsamples = 16

    /// The coverage of `path`, clipped to a canvas `width` × `height`.
    public static func coverage(of path: VectorPath, width: Int, height: Int) -> CoverageMask {
        var edges: [(top: Double, bottom: Double, x: Double, slope: Double, winding: Int)] = []
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        for contour in path.contours where contour.count >= 2 {
            for index in contour.indices {
                let a = contour[index], b = contour[(index + 1) % contour.count]
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
        let left = clamp(minX.rounded(.down), width), right = clamp(maxX.rounded(.up), width)
        let top = clamp(minY.rounded(.down), height), bottom = clamp(maxY.rounded(.up), height)
        guard left < right, top < bottom else { return CoverageMask(x: 0, y: 0, width: 0, height: 0, coverage: []) }
        let boxWidth = right - left
        var mask = CoverageMask(x: left, y: top, width: boxWidth, height: bottom - top, coverage: [UInt8](repeating: 0, count: boxWidth * (bottom - top)))
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
                    addSpan(from: crossings[index].x - Double(left), to: crossings[index + 1].x - Double(left), weight: share, into: &row)
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
        let a = min(max(start, 0), limit), b = min(max(end, 0), limit)
        guard a < b else { return }
        let first = Int(a), last = Int(b)
        if first == last {
            row[first] += weight * Float(b - a)
            return
        }
        row[first] += weight * Float(Double(first + 1) - a)
        if first + 1 < last { for column in first + 1..<last { row[column] += weight } }
        if last < row.count - 1 { row[last] += weight * Float(b - Double(last)) }
    }
}

#if canImport(Glibc)
import Glibc
#endif
