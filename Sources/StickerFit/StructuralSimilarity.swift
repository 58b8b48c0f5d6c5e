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
        guard width >= window && height >= window else {
            return windowSums(a, b, width: width, height: height, side: (min(window, width), min(window, height)))
        }
        // An 8 x 8 window stepped 4 pixels is four 4 x 4 blocks: each block's sums are made
        // once and each window's added from its four (whole numbers: the same sums as a
        // window read pixel by pixel), a quarter of the reading.
        let across = (width - window) / step + 1
        let down = (height - window) / step + 1
        var upper = [BlockSums](repeating: BlockSums(), count: across + 1)
        var lower = upper
        var total = 0.0
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                BlockSums.fill(&upper, row: 0, a, b, width: width)
                for windowRow in 0..<down {
                    BlockSums.fill(&lower, row: windowRow + 1, a, b, width: width)
                    for column in 0..<across {
                        let sums = upper[column] + upper[column + 1] + lower[column] + lower[column + 1]
                        sums.addSimilarity(pixels: window * window, to: &total)
                    }
                    swap(&upper, &lower)
                }
            }
        }
        return total / Double(across * down * 4)
    }

    /// The mean SSIM over windows of `side`, every window's sums read pixel by pixel: for
    /// images with a side under a window's.
    private static func windowSums(_ a: [UInt8], _ b: [UInt8], width: Int, height: Int, side: (x: Int, y: Int))
        -> Double
    {
        var total = 0.0
        var windows = 0
        a.withUnsafeBufferPointer { a in
            b.withUnsafeBufferPointer { b in
                var top = 0
                while top + side.y <= height {
                    var left = 0
                    while left + side.x <= width {
                        var sums = BlockSums()
                        for y in top..<(top + side.y) {
                            for x in left..<(left + side.x) { sums.add(a, b, at: (y * width + x) * 4) }
                        }
                        sums.addSimilarity(pixels: side.x * side.y, to: &total)
                        windows += 4
                        left += step
                    }
                    top += step
                }
            }
        }
        return windows == 0 ? 1 : total / Double(windows)
    }

    /// Per channel, the sums of x, y, x², y² and xy over some pixels of two images (at most
    /// 64 pixels: 64 x 255² fits 32 bits).
    private struct BlockSums {
        var sx = SIMD4<Int32>(), sy = SIMD4<Int32>(), sxx = SIMD4<Int32>(), syy = SIMD4<Int32>(),
            sxy = SIMD4<Int32>()

        static func + (l: BlockSums, r: BlockSums) -> BlockSums {
            BlockSums(
                sx: l.sx &+ r.sx, sy: l.sy &+ r.sy, sxx: l.sxx &+ r.sxx, syy: l.syy &+ r.syy, sxy: l.sxy &+ r.sxy)
        }

        /// Adds the pixel at byte offset `o` of both images.
        @inline(__always)
        mutating func add(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, at o: Int) {
            let x = SIMD4<Int32>(Int32(a[o]), Int32(a[o &+ 1]), Int32(a[o &+ 2]), Int32(a[o &+ 3]))
            let y = SIMD4<Int32>(Int32(b[o]), Int32(b[o &+ 1]), Int32(b[o &+ 2]), Int32(b[o &+ 3]))
            sx &+= x
            sy &+= y
            sxx &+= x &* x
            syy &+= y &* y
            sxy &+= x &* y
        }

        /// The sums of each 4 x 4 block of pixel rows `4 row ..< 4 row + 4`, from the left, into
        /// `blocks`.
        static func fill(
            _ blocks: inout [BlockSums], row: Int, _ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>,
            width: Int
        ) {
            for column in blocks.indices {
                var sums = BlockSums()
                for y in (row * step)..<(row * step + step) {
                    let start = (y * width + column * step) * 4
                    for x in 0..<step { sums.add(a, b, at: start &+ x &* 4) }
                }
                blocks[column] = sums
            }
        }

        /// Adds the SSIM of each channel over the `pixels` summed to `total`, a channel at a time.
        func addSimilarity(pixels: Int, to total: inout Double) {
            let n = Double(pixels)
            for c in 0..<4 {
                let mx = Double(sx[c]) / n
                let my = Double(sy[c]) / n
                let vx = Double(sxx[c]) / n - mx * mx
                let vy = Double(syy[c]) / n - my * my
                let cov = Double(sxy[c]) / n - mx * my
                total += ((2 * mx * my + c1) * (2 * cov + c2)) / ((mx * mx + my * my + c1) * (vx + vy + c2))
            }
        }
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
