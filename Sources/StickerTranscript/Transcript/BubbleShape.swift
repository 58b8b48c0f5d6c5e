import StickerPixels
import StickerRenderer

/// A message bubble's outline: a rounded rectangle and, on the last bubble of a run, the tail
/// at the bottom corner on the sender's side (``MessagesMetrics/tailCurves``).
public enum BubbleShape {
    /// The outline of a `width` × `height` point bubble whose top left is at `origin` points,
    /// scaled by `scale` to pixels; the tail on the right for `.me`, mirrored for `.them`.
    public static func path(origin: SIMD2<Double>, width: Double, height: Double, tail: Sender?, scale: Double)
        -> VectorPath
    {
        let r = min(MessagesMetrics.bubbleCornerRadius, height / 2, width / 2)
        // Drawn for a sent bubble in its own frame, then mirrored for a received one.
        var points = VectorPath()
        points.move(to: SIMD2(r, 0))
        points.line(to: SIMD2(width - r, 0))
        points.arc(centre: SIMD2(width - r, r), radius: r, from: -.pi / 2, to: 0)
        if tail != nil {
            let corner = SIMD2(width, height)
            points.line(to: corner + MessagesMetrics.tailStart)
            for (control1, control2, end) in MessagesMetrics.tailCurves {
                points.cubic(to: corner + end, control1: corner + control1, control2: corner + control2)
            }
        } else {
            points.arc(centre: SIMD2(width - r, height - r), radius: r, from: 0, to: .pi / 2)
        }
        points.arc(centre: SIMD2(r, height - r), radius: r, from: .pi / 2, to: .pi)
        points.arc(centre: SIMD2(r, r), radius: r, from: .pi, to: 1.5 * .pi)
        var placed = VectorPath()
        for contour in points.contours {
            for (index, point) in contour.enumerated() {
                let local = tail == .them ? SIMD2(width - point.x, point.y) : point
                let pixel = (origin + local) * scale
                if index == 0 { placed.move(to: pixel) } else { placed.line(to: pixel) }
            }
        }
        return placed
    }

    /// A rounded rectangle (`radius` points) at `origin`, scaled to pixels.
    public static func roundedRect(origin: SIMD2<Double>, width: Double, height: Double, radius: Double, scale: Double)
        -> VectorPath
    {
        let r = min(radius, height / 2, width / 2)
        var path = VectorPath()
        path.move(to: (origin + SIMD2(r, 0)) * scale)
        path.arc(centre: (origin + SIMD2(width - r, r)) * scale, radius: r * scale, from: -.pi / 2, to: 0)
        path.arc(centre: (origin + SIMD2(width - r, height - r)) * scale, radius: r * scale, from: 0, to: .pi / 2)
        path.arc(centre: (origin + SIMD2(r, height - r)) * scale, radius: r * scale, from: .pi / 2, to: .pi)
        path.arc(centre: (origin + SIMD2(r, r)) * scale, radius: r * scale, from: .pi, to: 1.5 * .pi)
        return path
    }
}
