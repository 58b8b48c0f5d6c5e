import AnimationCodec
import StickerPack

/// What the exact steps of `fit` encode for a sticker: its frames scaled and padded to the size
/// class's square, repeats merged, with the delays they are shown for (``FrameTimeline/shownPolicy(for:)``;
/// a video's or Lottie file's frames under 11 ms are not merged here). `stickers bench --fit` hands
/// the same frames to apngasm.
public struct ExactFrames: Sendable {
    /// The square's side in pixels.
    public var side: Int
    /// Premultiplied RGBA8 canvases, `side * side * 4` bytes each.
    public var frames: [[UInt8]]
    /// Each frame's delay.
    public var delays: [FrameDelay]
    /// Plays (0 = forever).
    public var plays: Int

    /// The exact frames of a file sticker (a sequence is not one animation: `nil`).
    public static func of(_ sticker: Sticker, size: StickerSize, options: FitOptions = FitOptions()) throws
        -> ExactFrames?
    {
        if case .sequence = sticker.source { return nil }
        let animation = try StickerAnimation.load(sticker, limits: options.limits)
        let shown = try animation.shownTimeline(threads: options.threads)
        let (scaled, _) = StickerGeometry.fit(
            shown.frames, width: animation.width, height: animation.height, side: size.pixels, threads: options.threads)
        let merged = FrameTimeline(frames: scaled, durations: shown.durations).mergingRepeats()
        return ExactFrames(side: size.pixels, frames: merged.frames, delays: merged.delays, plays: animation.plays)
    }

    /// The exact encoding `fit` makes of these frames, at `level` (12: libdeflate's strongest).
    public func encode(level: Int32 = 12, threads: Int = AnimationDecoder.defaultThreadCount)
        -> AnimationEncoder.Encoded
    {
        AnimationEncoder.encode(
            frames: frames, delays: delays, width: side, height: side, plays: plays,
            options: .init(compressionLevel: level, threads: threads))
    }
}
