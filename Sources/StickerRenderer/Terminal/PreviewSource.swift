import AnimationCodec
import StickerPack

/// What the terminal player plays: a picture that changes at known times, drawn at any size.
public protocol PreviewSource: AnyObject {
    /// The picture's natural size in pixels (its aspect ratio is kept).
    var pixelWidth: Int { get }
    /// The picture's natural height in pixels.
    var pixelHeight: Int { get }
    /// One loop's length in seconds (0 for a still); `--loops N` plays N of them.
    var loopDuration: Double { get }
    /// When playback has nothing more to show (`nil`: it loops forever).
    var endTime: Double? { get }
    /// The first time after `time` at which the picture changes.
    func nextChange(after time: Double) -> Double?
    /// The picture at `time`, `width` x `height` pixels.
    func image(at time: Double, width: Int, height: Int) throws(PackError) -> RGBAImage
}

/// One sticker file: its frames, scaled once per size and kept (terminal frames are small).
public final class StickerPreviewSource: PreviewSource {
    private let animation: StickerAnimation
    private let clock: StickerClock
    private let background: Background?
    private var iterator: StickerFrameIterator
    private var cache: [Int: RGBAImage] = [:]
    private var cachedSize = (0, 0)

    /// Plays `animation` with `timing`, over `background` (`nil`: the terminal's own).
    public init(animation: StickerAnimation, timing: FrameTimingPolicy, background: Background?) {
        self.animation = animation
        self.background = background
        clock = StickerClock(delays: animation.delays, plays: animation.plays, policy: timing)
        iterator = animation.makeFrameIterator()
    }

    public var pixelWidth: Int { animation.width }
    public var pixelHeight: Int { animation.height }
    public var loopDuration: Double { clock.isAnimated ? clock.loopDuration : 0 }
    public var endTime: Double? { clock.isAnimated ? clock.endTime : 0 }
    public func nextChange(after time: Double) -> Double? { clock.nextChange(after: time) }

    /// The frame index shown at `time`.
    public func frameIndex(at time: Double) -> Int { clock.frameIndex(at: time) }

    public func image(at time: Double, width: Int, height: Int) throws(PackError) -> RGBAImage {
        if cachedSize != (width, height) {
            cache = [:]
            cachedSize = (width, height)
        }
        let index = clock.frameIndex(at: time)
        if let cached = cache[index] { return cached }
        if iterator.nextIndex > index { iterator = animation.makeFrameIterator() }
        while iterator.nextIndex <= index {
            let current = iterator.nextIndex
            guard let frame = try iterator.next() else { break }
            // Every frame passed on the way is scaled and kept: the next loop needs it.
            if cache[current] == nil { cache[current] = prepared(RGBAImage(frame), width: width, height: height) }
        }
        return cache[index] ?? RGBAImage(width: width, height: height)
    }

    private func prepared(_ frame: RGBAImage, width: Int, height: Int) -> RGBAImage {
        let scaled = Resampler().resize(frame, width: width, height: height)
        guard let background else { return scaled }
        var canvas = background.canvas(width: width, height: height)
        canvas.draw(scaled, atX: 0, y: 0)
        return canvas
    }
}

/// A whole sticker browser on one clock, rendered at 1x and scaled to the terminal.
public final class BrowserPreviewSource: PreviewSource {
    private let renderer: BrowserRenderer
    private var cache: [[Int]: RGBAImage] = [:]
    private var cachedSize = (0, 0)

    /// Plays `renderer`'s browser (render it at scale 1: the terminal has fewer pixels).
    public init(renderer: BrowserRenderer) {
        self.renderer = renderer
    }

    public var pixelWidth: Int { renderer.layout.pixelWidth }
    public var pixelHeight: Int { renderer.layout.pixelHeight }
    public var loopDuration: Double { renderer.longestLoop }
    public var endTime: Double? { renderer.endTime }
    public func nextChange(after time: Double) -> Double? { renderer.nextChange(after: time) }

    public func image(at time: Double, width: Int, height: Int) throws(PackError) -> RGBAImage {
        if cachedSize != (width, height) {
            cache = [:]
            cachedSize = (width, height)
        }
        let key = renderer.frameIndices(at: time)
        if let cached = cache[key] { return cached }
        let image = Resampler().resize(try renderer.snapshot(at: time), width: width, height: height)
        // Distinct browser states can be many (stickers with unrelated loops): keep a bounded set.
        if cache.count > 512 { cache.removeAll() }
        cache[key] = image
        return image
    }
}
