import AnimationCodec
import StickerFit
import StickerPack

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
    func frameIndex(at time: Double) -> Int { timeline.frameIndex(at: time) }

    /// The frames and their times as `stickers fit` measures them.
    var timeline: FrameTimeline { FrameTimeline(frames: frames, durations: durations) }

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
        frames = StickerGeometry.fit(frames, width: animation.width, height: animation.height, side: side, threads: threads).frames
        return ShownFrames(width: side, height: side, frames: frames, durations: durations)
    }
}
