import Foundation

/// Resizes premultiplied RGBA8 images with a separable filter.
///
/// Working in premultiplied space is what keeps soft edges clean: a half-transparent red
/// pixel next to a transparent (black, alpha 0) one averages to a more transparent red, not
/// a darker one. When shrinking, the filter is widened by the shrink factor so it averages
/// every source pixel under a destination pixel (no aliasing on thin lines); negative lobes
/// are clamped so that colour never exceeds alpha.
public struct Resampler: Sendable, Hashable {
    /// The filter kernel.
    public enum Filter: String, Sendable, Hashable, CaseIterable {
        /// Lanczos, 3 lobes: sharp, the usual choice for downscaling photos and art.
        case lanczos3
        /// Triangle (tent): softer, no ringing, a little less alias suppression.
        case triangle

        /// The kernel's radius in filter units.
        var support: Double {
            switch self {
            case .lanczos3: return 3
            case .triangle: return 1
            }
        }

        /// The kernel's value at distance `x`.
        func weight(_ x: Double) -> Double {
            let x = abs(x)
            switch self {
            case .lanczos3:
                if x < 1e-9 { return 1 }
                if x >= 3 { return 0 }
                let px = Double.pi * x
                return 3 * sin(px) * sin(px / 3) / (px * px)
            case .triangle:
                return max(0, 1 - x)
            }
        }
    }

    /// The kernel used.
    public var filter: Filter

    /// Creates a resampler (Lanczos 3 by default).
    public init(filter: Filter = .lanczos3) {
        self.filter = filter
    }

    /// `image` resized to `width` x `height`.
    public func resize(_ image: RGBAImage, width: Int, height: Int) -> RGBAImage {
        precondition(width > 0 && height > 0)
        if width == image.width && height == image.height { return image }
        guard image.width > 0, image.height > 0 else { return RGBAImage(width: width, height: height) }
        let horizontal = Contributions(source: image.width, destination: width, filter: filter)
        let vertical = Contributions(source: image.height, destination: height, filter: filter)
        // Horizontal pass into a float buffer (keeps precision and negative lobes), then a
        // vertical pass that accumulates whole rows, so both passes walk memory in order.
        let sourceWidth = image.width, sourceHeight = image.height
        var middle = [SIMD4<Float>](repeating: .zero, count: width * sourceHeight)
        var sourceRow = [SIMD4<Float>](repeating: .zero, count: sourceWidth)
        image.pixels.withUnsafeBufferPointer { source in
            middle.withUnsafeMutableBufferPointer { out in
                sourceRow.withUnsafeMutableBufferPointer { row in
                    horizontal.weights.withUnsafeBufferPointer { weights in
                        // Safe: spans lie inside 0..<sourceWidth (see Contributions), rows
                        // inside 0..<sourceHeight, and `out` holds width * sourceHeight.
                        for y in 0..<sourceHeight {
                            let base = y &* sourceWidth &* 4
                            for x in 0..<sourceWidth {
                                let o = base &+ x &* 4
                                row[x] = SIMD4<Float>(Float(source[o]), Float(source[o &+ 1]), Float(source[o &+ 2]), Float(source[o &+ 3]))
                            }
                            let outBase = y &* width
                            for x in 0..<width {
                                let span = horizontal.spans[x]
                                var sum = SIMD4<Float>.zero
                                for k in 0..<span.count {
                                    sum += row[span.start &+ k] * weights[span.offset &+ k]
                                }
                                out[outBase &+ x] = sum
                            }
                        }
                    }
                }
            }
        }
        var accumulator = [SIMD4<Float>](repeating: .zero, count: width)
        let result = [UInt8](unsafeUninitializedCapacity: width * height * 4) { out, count in
            middle.withUnsafeBufferPointer { rows in
                accumulator.withUnsafeMutableBufferPointer { acc in
                    vertical.weights.withUnsafeBufferPointer { weights in
                        for y in 0..<height {
                            let span = vertical.spans[y]
                            for x in 0..<width { acc[x] = .zero }
                            for k in 0..<span.count {
                                let w = weights[span.offset &+ k]
                                let rowBase = (span.start &+ k) &* width
                                for x in 0..<width { acc[x] += rows[rowBase &+ x] * w }
                            }
                            let outBase = y &* width &* 4
                            for x in 0..<width {
                                // Clamp alpha to 0...255 and colour to 0...alpha (negative lobes
                                // can overshoot either way), then round half up.
                                let a = min(max(acc[x][3], 0), 255)
                                let c = acc[x].clamped(lowerBound: .zero, upperBound: SIMD4<Float>(repeating: a)) + 0.5
                                let o = outBase &+ x &* 4
                                out[o] = UInt8(c[0]); out[o &+ 1] = UInt8(c[1]); out[o &+ 2] = UInt8(c[2]); out[o &+ 3] = UInt8(a + 0.5)
                            }
                        }
                    }
                }
            }
            count = width * height * 4
        }
        return RGBAImage(width: width, height: height, pixels: result)
    }
}

/// For each destination pixel along one axis: the source pixels it reads and their
/// normalised weights.
private struct Contributions {
    struct Span {
        var start: Int
        var count: Int
        var offset: Int
    }

    var spans: [Span] = []
    var weights: [Float] = []

    init(source: Int, destination: Int, filter: Resampler.Filter) {
        let ratio = Double(destination) / Double(source)
        // Shrinking widens the kernel so every covered source pixel contributes.
        let stretch = max(1, 1 / ratio)
        let radius = filter.support * stretch
        for d in 0..<destination {
            let centre = (Double(d) + 0.5) / ratio
            let first = max(0, Int((centre - radius).rounded(.down)))
            let last = min(source - 1, Int((centre + radius).rounded(.up)))
            var local: [Double] = []
            var total = 0.0
            for s in first...max(first, last) {
                let w = filter.weight((Double(s) + 0.5 - centre) / stretch)
                local.append(w)
                total += w
            }
            if total == 0 {
                // Cannot happen for these kernels (the nearest pixel always has weight); be safe.
                let nearest = min(source - 1, max(0, Int(centre)))
                spans.append(Span(start: nearest, count: 1, offset: weights.count))
                weights.append(1)
                continue
            }
            spans.append(Span(start: first, count: local.count, offset: weights.count))
            weights.append(contentsOf: local.map { Float($0 / total) })
        }
    }
}
