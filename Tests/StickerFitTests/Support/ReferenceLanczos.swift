import Foundation

/// Premultiplied Lanczos-3 resampling written from the formula, in `Double`, as the oracle for
/// `fit`'s scaling: separable (rows, then columns), each destination pixel centred at
/// `(d + 0.5) * source / destination`, the kernel `sinc(x) * sinc(x / 3)` for `|x| < 3`
/// widened by the shrink factor when shrinking (so every source pixel under a destination
/// pixel counts), taps past the image's edge dropped and the rest normalised. The result is
/// rounded to the nearest level with alpha clamped to 0...255 and colour to 0...alpha (a
/// premultiplied colour never exceeds its alpha).
enum ReferenceLanczos {
    /// Lanczos 3 at `x`.
    static func kernel(_ x: Double) -> Double {
        let x = abs(x)
        if x == 0 { return 1 }
        if x >= 3 { return 0 }
        return 3 * sin(Double.pi * x) * sin(Double.pi * x / 3) / (Double.pi * Double.pi * x * x)
    }

    /// For each destination pixel along one axis: the first source pixel read and the weights.
    static func taps(source: Int, destination: Int) -> [(first: Int, weights: [Double])] {
        let scale = Double(source) / Double(destination)
        let widen = max(1, scale)
        let support = 3 * widen
        return (0..<destination).map { d in
            let centre = (Double(d) + 0.5) * scale
            let first = max(0, Int((centre - support).rounded(.down)))
            let last = min(source - 1, Int((centre + support).rounded(.up)))
            let raw = (first...last).map { kernel((Double($0) + 0.5 - centre) / widen) }
            let total = raw.reduce(0, +)
            return (first, raw.map { $0 / total })
        }
    }

    /// `pixels` (`width` x `height` premultiplied RGBA8) resized to `newWidth` x `newHeight`.
    static func resize(_ pixels: [UInt8], width: Int, height: Int, to newWidth: Int, _ newHeight: Int) -> [UInt8] {
        let horizontal = taps(source: width, destination: newWidth)
        let vertical = taps(source: height, destination: newHeight)
        var rows = [Double](repeating: 0, count: height * newWidth * 4)
        for y in 0..<height {
            for (x, tap) in horizontal.enumerated() {
                for (k, weight) in tap.weights.enumerated() {
                    let source = (y * width + tap.first + k) * 4
                    for c in 0..<4 { rows[(y * newWidth + x) * 4 + c] += weight * Double(pixels[source + c]) }
                }
            }
        }
        var out = [UInt8](repeating: 0, count: newWidth * newHeight * 4)
        for (y, tap) in vertical.enumerated() {
            for x in 0..<newWidth {
                var sum = [Double](repeating: 0, count: 4)
                for (k, weight) in tap.weights.enumerated() {
                    for c in 0..<4 { sum[c] += weight * rows[((tap.first + k) * newWidth + x) * 4 + c] }
                }
                let alpha = min(max(sum[3], 0), 255)
                let o = (y * newWidth + x) * 4
                for c in 0..<3 { out[o + c] = UInt8(min(max(sum[c], 0), alpha).rounded()) }
                out[o + 3] = UInt8(alpha.rounded())
            }
        }
        return out
    }
}
