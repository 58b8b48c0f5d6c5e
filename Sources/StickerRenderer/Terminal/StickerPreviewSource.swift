import AnimationCodec
import StickerPack
import StickerPixels

/// One sticker file: its frames, scaled once per size and kept (terminal frames are small).
public final class StickerPreviewSource: PreviewSource {
    private let animation: StickerAnimation
    private let clock: StickerClock
    private let background: Background?
    private let resampler: Resampler
    private var iterator: StickerFrameIterator
    private var cache: [Int: RGBAImage] = [:]
    private var cachedSize = (0, 0)

    /// Plays `animation` with `timing`, over `background` (`nil`: the terminal's own), scaled
    /// to the terminal with `filter`.
    public init(
        animation: StickerAnimation, timing: FrameTimingPolicy, background: Background?, filter: Resampler.Filter = .box
    ) {
        self.animation = animation
        self.background = background
        resampler = Resampler(filter: filter)
        clock = StickerClock(
            delays: animation.delays, plays: animation.plays, policy: timing, format: animation.format)
        iterator = animation.makeFrameIterator()
    }

    /// The sticker's width in pixels.
    public var pixelWidth: Int { animation.width }
    /// The sticker's height in pixels.
    public var pixelHeight: Int { animation.height }
    /// One loop, in seconds (0 for a still).
    public var loopDuration: Double { clock.isAnimated ? clock.loopDuration : 0 }
    /// When the last play ends (`nil`: forever).
    public var endTime: Double? { clock.isAnimated ? clock.endTime : 0 }
    /// The next time the picture changes.
    public func nextChange(after time: Double) -> Double? { clock.nextChange(after: time) }

    /// The frame index shown at `time`.
    public func frameIndex(at time: Double) -> Int { clock.frameIndex(at: time) }

    /// Why the sticker stops part-way: a frame that failed to decode (damage past what was read
    /// at load). From that frame on the crossed-out mark (``Placeholder``) is drawn in its place,
    /// as the browser draws such a sticker; the frames before it play as they are.
    public private(set) var failure: PackError?
    /// The frame that failed to decode.
    private var failedFrame: Int?

    /// The picture at `time`, scaled to `width` x `height` (cached per frame); the crossed-out
    /// mark from a frame that does not decode on (``failure``).
    public func image(at time: Double, width: Int, height: Int) throws(PackError) -> RGBAImage {
        if cachedSize != (width, height) {
            cache = [:]
            cachedSize = (width, height)
        }
        let index = clock.frameIndex(at: time)
        if let cached = cache[index] { return cached }
        if let failedFrame, index >= failedFrame { return Placeholder.image(width: width, height: height) }
        if iterator.nextIndex > index { iterator = animation.makeFrameIterator() }
        while iterator.nextIndex <= index {
            let current = iterator.nextIndex
            let decoded: RGBAImage
            do {
                guard let frame = try iterator.next() else { break }
                decoded = RGBAImage(frame)
            } catch {
                failure = error
                failedFrame = current
                return Placeholder.image(width: width, height: height)
            }
            // Every frame passed on the way is scaled and kept: the next loop needs it.
            if cache[current] == nil { cache[current] = prepared(decoded, width: width, height: height) }
        }
        return cache[index] ?? RGBAImage(width: width, height: height)
    }

    private func prepared(_ frame: RGBAImage, width: Int, height: Int) -> RGBAImage {
        let scaled = resampler.resize(frame, width: width, height: height)
        guard let background else { return scaled }
        var canvas = background.canvas(width: width, height: height)
        canvas.draw(scaled, atX: 0, y: 0)
        return canvas
    }
}
