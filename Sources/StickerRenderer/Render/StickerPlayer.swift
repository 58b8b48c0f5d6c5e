import AnimationCodec
import StickerPack
import StickerPixels

/// One sticker in one cell: its animation, its clock, and its frames scaled to the cell.
/// Scaled frames are cached when the budget allows; otherwise a loop decodes again.
///
/// Unchecked `Sendable`: its cache and iterator change without a lock, so one thread at a time
/// may use a player. ``BrowserRenderer`` hands each of its concurrent workers a different
/// player, and the transcript draws its players on one thread.
package final class StickerPlayer: @unchecked Sendable {
    package let index: Int
    /// The sticker's name, for the renderer's problems.
    package let name: String
    package let animation: StickerAnimation
    package let clock: StickerClock
    package let rect: PixelRect
    private let resampler: Resampler
    private let cacheAll: Bool
    private var cache: [Int: RGBAImage] = [:]
    private var iterator: StickerFrameIterator
    private var lastDecoded: (index: Int, image: RGBAImage)?
    /// Why the sticker stopped part-way: a frame that failed to decode (damage past what was
    /// read at load). From then on the player draws the ``Placeholder``, as a sticker that
    /// cannot be read at all is drawn, and its renderer names it among its problems.
    package private(set) var failure: PackError?

    package init(
        index: Int, name: String, animation: StickerAnimation, rect: PixelRect, timing: FrameTimingPolicy,
        resampler: Resampler, cacheAll: Bool
    ) {
        self.index = index
        self.name = name
        self.animation = animation
        self.rect = rect
        self.resampler = resampler
        self.cacheAll = cacheAll
        clock = StickerClock(
            delays: animation.delays, plays: animation.plays, policy: timing, format: animation.format)
        iterator = animation.makeFrameIterator()
    }

    /// The pixels of one source frame: how much work scaling it is.
    package var sourcePixels: Int { animation.width * animation.height }

    /// Frame `index`, or the last frame when the animation has fewer (the first for negative).
    package func clampedFrame(_ index: Int) -> Int { min(max(0, index), animation.frameCount - 1) }

    /// The bytes one scaled frame takes.
    package var scaledFrameBytes: Int { rect.width * rect.height * 4 }

    /// Frame `frameIndex`, scaled to the cell; the placeholder once a frame has failed to decode.
    package func image(forFrame frameIndex: Int) -> RGBAImage {
        if failure == nil {
            do { return try decodedImage(forFrame: frameIndex) } catch { failure = error }
        }
        return Placeholder.image(width: rect.width, height: rect.height)
    }

    /// Frame `frameIndex`, scaled to the cell, decoding up to it when it is not at hand.
    private func decodedImage(forFrame frameIndex: Int) throws(PackError) -> RGBAImage {
        if let cached = cache[frameIndex] { return cached }
        if let last = lastDecoded, last.index == frameIndex { return last.image }
        if iterator.nextIndex > frameIndex { iterator = animation.makeFrameIterator() }
        while iterator.nextIndex <= frameIndex {
            let current = iterator.nextIndex
            guard let frame = try iterator.next() else { break }
            // Earlier frames are composited on the way; scale only the ones kept.
            if current == frameIndex || cacheAll {
                let scaled = resampler.resize(RGBAImage(frame), width: rect.width, height: rect.height)
                if cacheAll { cache[current] = scaled }
                if current == frameIndex { lastDecoded = (current, scaled) }
            }
        }
        guard let last = lastDecoded, last.index == frameIndex else {
            throw .codec(
                path: animation.sourcePath, .frameIndexOutOfRange(index: frameIndex, frameCount: animation.frameCount))
        }
        return last.image
    }
}

extension Collection where Element == StickerPlayer {
    /// The longest single loop among the players, in seconds (0 when none animates).
    package var longestLoop: Double {
        map { $0.clock.isAnimated ? $0.clock.loopDuration : 0 }.max() ?? 0
    }

    /// The instants in `0..<duration` at which any player changes frame, sorted, with 0; at
    /// millisecond resolution (APNG stores delays in whole milliseconds here).
    package func changeTimes(duration: Double, maxFrames: Int) -> [Double] {
        var times: Set<Double> = [0]
        for player in self {
            for t in player.clock.changeTimes(until: duration, maxCount: maxFrames) {
                times.insert((t * 1000).rounded() / 1000)
            }
        }
        return Array(times.sorted().filter { $0 < duration || $0 == 0 }.prefix(maxFrames))
    }
}
