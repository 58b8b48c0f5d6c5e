import AnimationCodec
import StickerPixels

/// Scaling and padding a sticker's frames to a size class's square.
public enum StickerGeometry {
    /// The size `width` x `height` scales to so its longer side is `side`.
    public static func scaledSize(width: Int, height: Int, side: Int) -> (width: Int, height: Int) {
        let longer = max(width, height)
        if longer == side { return (width, height) }
        let scale = Double(side) / Double(longer)
        return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }

    /// `frames` (`width` x `height` premultiplied canvases) scaled with the renderer's
    /// premultiplied Lanczos 3 (or `filter`) so the longer side is `side`, then centred on a
    /// transparent `side` x `side` square; and the steps that took.
    public static func fit(
        _ frames: [[UInt8]], width: Int, height: Int, side: Int, threads: Int,
        filter: Resampler.Filter = .lanczos3
    ) -> (frames: [[UInt8]], steps: [FitStep]) {
        var steps: [FitStep] = []
        let (scaledWidth, scaledHeight) = scaledSize(width: width, height: height, side: side)
        var frames = frames
        if (scaledWidth, scaledHeight) != (width, height) {
            let resampler = Resampler(filter: filter)
            frames = ParallelWork.map(frames, threads: threads) { frame in
                resampler.resize(
                    RGBAImage(width: width, height: height, pixels: frame), width: scaledWidth, height: scaledHeight
                ).pixels
            }
            steps.append(
                FitStep(
                    .scale,
                    "\(width)x\(height) -> \(scaledWidth)x\(scaledHeight) (premultiplied \(filter == .lanczos3 ? "Lanczos 3" : filter.rawValue))"
                ))
        }
        if (scaledWidth, scaledHeight) != (side, side) {
            let x = (side - scaledWidth) / 2
            let y = (side - scaledHeight) / 2
            frames = frames.map { frame in
                var square = RGBAImage(width: side, height: side)
                // OVER a transparent canvas stores the pixels as they are.
                square.draw(RGBAImage(width: scaledWidth, height: scaledHeight, pixels: frame), atX: x, y: y)
                return square.pixels
            }
            steps.append(FitStep(.pad, "\(scaledWidth)x\(scaledHeight) -> \(side)x\(side), centred on transparent"))
        }
        return (frames, steps)
    }
}
