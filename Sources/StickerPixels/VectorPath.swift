#if canImport(Glibc)
    import Glibc
#endif

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
            let t = Double(step) / Double(steps)
            let u = 1 - t
            line(to: u * u * start + 2 * u * t * control + t * t * point)
        }
    }

    /// A cubic Bézier to `point` through `control1` and `control2`.
    public mutating func cubic(to point: SIMD2<Double>, control1: SIMD2<Double>, control2: SIMD2<Double>) {
        let start = currentPoint
        let steps = Self.steps(start, control1, control2, point)
        for step in 1...steps {
            let t = Double(step) / Double(steps)
            let u = 1 - t
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
