import AnimationCodec

#if canImport(Glibc)
    import Glibc
#endif

/// Draws an image turned about its centre: each canvas pixel the turned image covers takes the
/// source sampled bilinearly (premultiplied, transparent beyond the edges) at its pre-image.
public enum RotatedDrawing {
    /// `image` with its centre at `centre` (canvas pixels), turned `degrees` clockwise, over the canvas.
    public static func draw(_ image: RGBAImage, centre: SIMD2<Double>, degrees: Double, on canvas: inout RGBAImage) {
        let radians = degrees * .pi / 180
        let c = cos(radians)
        let s = sin(radians)
        let half = SIMD2(Double(image.width), Double(image.height)) / 2
        // The turned image's corners bound the pixels to visit.
        let corners = [SIMD2(-half.x, -half.y), SIMD2(half.x, -half.y), SIMD2(half.x, half.y), SIMD2(-half.x, half.y)]
            .map {
                centre + SIMD2($0.x * c - $0.y * s, $0.x * s + $0.y * c)
            }
        let left = max(0, Int((corners.map(\.x).min()! - 1).rounded(.down)))
        let right = min(canvas.width, Int((corners.map(\.x).max()! + 1).rounded(.up)))
        let top = max(0, Int((corners.map(\.y).min()! - 1).rounded(.down)))
        let bottom = min(canvas.height, Int((corners.map(\.y).max()! + 1).rounded(.up)))
        guard left < right, top < bottom else { return }
        let width = canvas.width
        image.pixels.withUnsafeBufferPointer { source in
            canvas.pixels.withUnsafeMutableBufferPointer { out in
                func texel(_ x: Int, _ y: Int) -> SIMD4<Double> {
                    guard x >= 0, y >= 0, x < image.width, y < image.height else { return .zero }
                    let o = (y * image.width + x) * 4
                    return SIMD4(Double(source[o]), Double(source[o + 1]), Double(source[o + 2]), Double(source[o + 3]))
                }
                for row in top..<bottom {
                    for column in left..<right {
                        // The pixel's centre turned back into the image (pixel centres at +0.5).
                        let d = SIMD2(Double(column) + 0.5, Double(row) + 0.5) - centre
                        let u = d.x * c + d.y * s + half.x - 0.5
                        let v = -d.x * s + d.y * c + half.y - 0.5
                        let x0 = Int(u.rounded(.down))
                        let y0 = Int(v.rounded(.down))
                        guard x0 >= -1, y0 >= -1, x0 < image.width, y0 < image.height else { continue }
                        let fx = u - Double(x0)
                        let fy = v - Double(y0)
                        let sample =
                            (texel(x0, y0) * (1 - fx) + texel(x0 + 1, y0) * fx) * (1 - fy)
                            + (texel(x0, y0 + 1) * (1 - fx) + texel(x0 + 1, y0 + 1) * fx) * fy
                        // The sample rounded to a premultiplied pixel, then OVER by BlendKernels' rule.
                        let alpha = UInt8(min(255, sample.w.rounded()))
                        guard alpha > 0 else { continue }
                        func channel(_ value: Double) -> UInt8 { min(alpha, UInt8(min(255, value.rounded()))) }
                        let source = SIMD4(channel(sample.x), channel(sample.y), channel(sample.z), alpha)
                        Painter.blend(source, into: out, at: (row * width + column) * 4)
                    }
                }
            }
        }
    }
}
