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
    /// The canvases (premultiplied RGBA8, `width * height * 4` bytes each) and their display
    /// times, as `stickers fit` measures them.
    var timeline: FrameTimeline

    /// The number of frames.
    var count: Int { timeline.count }
    /// Seconds one loop takes.
    var loopSeconds: Double { timeline.totalSeconds }
    /// Frames per second over the loop; 0 for a still.
    var framesPerSecond: Double { timeline.framesPerSecond }

    /// The file `bytes`, decoded by StickerKit's decoder (every frame composited).
    static func decode(_ bytes: [UInt8], limits: DecodingLimits = .default) throws(CodecError) -> ShownFrames {
        let decoder = try AnimationDecoder(bytes: bytes, limits: limits)
        return ShownFrames(
            width: decoder.info.width, height: decoder.info.height, timeline: try FrameTimeline(shownBy: decoder))
    }

    /// `animation` decoded by StickerKit's decoder and scaled as `stickers fit` scales it: the
    /// longer side to `side` with the renderer's premultiplied Lanczos 3 (sizes rounded to
    /// the nearest pixel), centred on a transparent `side` x `side` square. Every input frame
    /// is kept, repeats included, with its display time.
    static func reference(_ animation: StickerAnimation, side: Int, threads: Int) throws(PackError) -> ShownFrames {
        var shown = try animation.shownTimeline(threads: threads)
        shown.frames =
            StickerGeometry.fit(
                shown.frames, width: animation.width, height: animation.height, side: side, threads: threads
            ).frames
        return ShownFrames(width: side, height: side, timeline: shown)
    }
}
