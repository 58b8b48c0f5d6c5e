import AnimationCodec
import StickerPack
import StickerRenderer

/// A sticker as Messages shows it: whole premultiplied RGBA8 canvases, each with its display
/// time (Apple's timing: a delay under 11 ms shows for 100 ms). `stickers bench --fit-peer`
/// builds the reference and both tools' outputs as these, so one decoder and one clock judge all.
struct ShownFrames {
    /// Canvas width in pixels.
    var width: Int
    /// Canvas height in pixels.
    var height: Int
    /// Premultiplied RGBA8 canvases, `width * height * 4` bytes each.
    var frames: [[UInt8]]
    /// Each frame's display time in seconds.
    var durations: [Double]

    /// The number of frames.
    var count: Int { frames.count }
    /// Seconds one loop takes.
    var loopSeconds: Double { durations.reduce(0, +) }
    /// Frames per second over the loop; 0 for a still.
    var framesPerSecond: Double { count > 1 && loopSeconds > 0 ? Double(count) / loopSeconds : 0 }

    /// The frame shown `time` seconds after the start, the loop repeating: an output whose
    /// loop is shorter than the reference's comes round again, so a speed-up counts as error.
    func frameIndex(at time: Double) -> Int {
        let loop = loopSeconds
        guard count > 1, loop > 0 else { return 0 }
        let inLoop = time.truncatingRemainder(dividingBy: loop)
        var end = 0.0
        for (index, duration) in durations.enumerated() {
            end += duration
            if inLoop < end - 1e-9 { return index }
        }
        return count - 1
    }

    /// The file `bytes`, decoded by StickerKit's decoder (every frame composited).
    static func decode(_ bytes: [UInt8], limits: DecodingLimits = .default) throws(CodecError) -> ShownFrames {
        let decoder = try AnimationDecoder(bytes: bytes, limits: limits)
        let frames = try decoder.decodeAllFrames(threads: 1)
        return ShownFrames(width: decoder.info.width, height: decoder.info.height, frames: frames.map(\.pixels),
                           durations: decoder.info.frames.map { FrameTimingPolicy.apple.displayMilliseconds(for: $0.delay) / 1000 })
    }

    /// `animation` decoded by StickerKit's decoder and scaled as `stickers fit` scales it: the
    /// longer side to `side` with the renderer's premultiplied Lanczos 3 (sizes rounded to
    /// the nearest pixel), centred on a transparent `side` x `side` square. Every input frame
    /// is kept, repeats included, with its display time.
    static func reference(_ animation: StickerAnimation, side: Int, threads: Int) throws(PackError) -> ShownFrames {
        var frames: [[UInt8]] = []
        try animation.forEachFrame(threads: threads) { _, frame in frames.append(frame.pixels) }
        let durations = animation.delays.map { FrameTimingPolicy.apple.displayMilliseconds(for: $0) / 1000 }
        let (width, height) = (animation.width, animation.height)
        let (scaledWidth, scaledHeight) = scaledSize(width: width, height: height, side: side)
        if (scaledWidth, scaledHeight) != (width, height) {
            let resampler = Resampler(filter: .lanczos3)
            frames = ParallelWork.map(frames, threads: threads) { frame in
                resampler.resize(RGBAImage(width: width, height: height, pixels: frame), width: scaledWidth, height: scaledHeight).pixels
            }
        }
        if (scaledWidth, scaledHeight) != (side, side) {
            let x = (side - scaledWidth) / 2, y = (side - scaledHeight) / 2
            frames = frames.map { frame in
                var square = RGBAImage(width: side, height: side)
                square.draw(RGBAImage(width: scaledWidth, height: scaledHeight, pixels: frame), atX: x, y: y)
                return square.pixels
            }
        }
        return ShownFrames(width: side, height: side, frames: frames, durations: durations)
    }

    /// The size `width` x `height` scales to so its longer side is `side` (`fit`'s rounding).
    static func scaledSize(width: Int, height: Int, side: Int) -> (width: Int, height: Int) {
        let longer = max(width, height)
        if longer == side { return (width, height) }
        let scale = Double(side) / Double(longer)
        return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }
}
