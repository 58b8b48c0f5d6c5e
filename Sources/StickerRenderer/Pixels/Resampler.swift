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
        // Horizontal pass into a float buffer (keeps precision and negative lobes), then vertical.
        var middle = [SIMD4<Float>](repeating: .zero, count: width * image.height)
        image.pixels.withUnsafeBytes { raw in
            let source = raw.bindMemory(to: UInt8.self)
            middle.withUnsafeMutableBufferPointer { out in
                for y in 0..<image.height {
                    let rowBase = y * image.width
                    for x in 0..<width {
                        let span = horizontal.spans[x]
                        var sum = SIMD4<Float>.zero
                        for k in 0..<span.count {
                            let o = (rowBase + span.start + k) * 4
                            let pixel = SIMD4<Float>(Float(source[o]), Float(source[o + 1]), Float(source[o + 2]), Float(source[o + 3]))
                            sum += pixel * horizontal.weights[span.offset + k]
                        }
                        out[y * width + x] = sum
                    }
                }
            }
        }
        var result = [UInt8](repeating: 0, count: width * height * 4)
        middle.withUnsafeBufferPointer { rows in
            result.withUnsafeMutableBufferPointer { out in
                for y in 0..<height {
                    let span = vertical.spans[y]
                    for x in 0..<width {
                        var sum = SIMD4<Float>.zero
                        for k in 0..<span.count {
                            sum += rows[(span.start + k) * width + x] * vertical.weights[span.offset + k]
                        }
                        let alpha = min(255, max(0, sum[3].rounded()))
                        let o = (y * width + x) * 4
                        out[o + 3] = UInt8(alpha)
                        for c in 0..<3 { out[o + c] = UInt8(min(alpha, max(0, sum[c].rounded()))) }
                    }
                }
            }
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
