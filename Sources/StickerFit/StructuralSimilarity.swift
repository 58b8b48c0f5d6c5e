/// SSIM, the perceptual figure `fit` reports beside PSNR: how alike two images' local means,
/// contrasts and structures are (1 is identical), which an eye follows more closely than the
/// mean squared error does (noise on flat colour counts more than the same error at an edge).
///
/// Computed over every premultiplied channel (R, G, B and A: a sticker's edges are in its
/// alpha) in uniform 8x8 windows stepped 4 pixels apart, with Wang et al.'s constants
/// C1 = (0.01 x 255)^2 and C2 = (0.03 x 255)^2, and averaged over windows and channels; over
/// an animation, averaged over the instants ``Fidelity/compare(_:_:)`` looks at.
public enum StructuralSimilarity {
    /// The window's side and its step, in pixels.
    static let window = 8, step = 4
    static let c1 = (0.01 * 255) * (0.01 * 255), c2 = (0.03 * 255) * (0.03 * 255)

    /// The mean SSIM of two premultiplied RGBA8 images of `width` x `height` (sides under 8
    /// pixels are one window of the whole image).
    public static func mean(_ a: [UInt8], _ b: [UInt8], width: Int, height: Int) -> Double {
        precondition(a.count == width * height * 4 && b.count == a.count)
        let side = (x: min(window, width), y: min(window, height))
        var total = 0.0
        var windows = 0
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                var top = 0
                while top + side.y <= height {
                    var left = 0
                    while left + side.x <= width {
                        // Per channel: sums of x, y, x², y², xy over the window.
                        var sx = SIMD4<Int>()
                        var sy = SIMD4<Int>()
                        var sxx = SIMD4<Int>()
                        var syy = SIMD4<Int>()
                        var sxy = SIMD4<Int>()
                        for y in top..<(top + side.y) {
                            var o = (y * width + left) * 4
                            for _ in 0..<side.x {
                                let x = SIMD4<Int>(Int(a[o]), Int(a[o + 1]), Int(a[o + 2]), Int(a[o + 3]))
                                let v = SIMD4<Int>(Int(b[o]), Int(b[o + 1]), Int(b[o + 2]), Int(b[o + 3]))
                                sx &+= x; sy &+= v; sxx &+= x &* x; syy &+= v &* v; sxy &+= x &* v
                                o += 4
                            }
                        }
                        let n = Double(side.x * side.y)
                        for c in 0..<4 {
                            let mx = Double(sx[c]) / n
                            let my = Double(sy[c]) / n
                            let vx = Double(sxx[c]) / n - mx * mx
                            let vy = Double(syy[c]) / n - my * my
                            let cov = Double(sxy[c]) / n - mx * my
                            total += ((2 * mx * my + c1) * (2 * cov + c2)) / ((mx * mx + my * my + c1) * (vx + vy + c2))
                        }
                        windows += 4
                        left += step
                    }
                    top += step
                }
            }
        }
        return windows == 0 ? 1 : total / Double(windows)
    }

    /// The mean SSIM of what `shown` shows at each start time of `reference` (its loop
    /// repeating) against `reference`'s frame, averaged over those instants; every frame is
    /// `width` x `height`.
    public static func compare(_ shown: FrameTimeline, _ reference: FrameTimeline, width: Int, height: Int) -> Double {
        var total = 0.0
        for (frame, other) in zip(reference.frames, shown.framesShown(atStartsOf: reference)) {
            guard other.count == frame.count, frame.count == width * height * 4 else { return 0 }
            total += mean(frame, other, width: width, height: height)
        }
        return reference.frames.isEmpty ? 1 : total / Double(reference.frames.count)
    }
}
