import AnimationCodec
import StickerPack
import StickerPixels
import StickerRenderer

/// A sticker scaled to fit a square, as an APNG with its own timing and loop count (a PNG for
/// a still): transparent where the sticker is, so the page shows the one file over every test
/// background, as the browser composites it.
enum StickerPreview {
    /// The encoded preview and its pixel size.
    struct Encoded {
        var bytes: [UInt8]
        var width: Int
        var height: Int
        /// For an animation, a PNG of its frame that shows most (the first of those with the
        /// most visible pixels): a sticker fading in is not shown by its empty first frame.
        var still: [UInt8]?
    }

    /// `animation` scaled (premultiplied Lanczos) to fit a `side`-pixel square, each frame
    /// shown for its time under Apple's timing policy; frames after the first store only what
    /// changed.
    static func encode(_ animation: StickerAnimation, side: Int) throws(PackError) -> Encoded {
        let fitted = ContactSheets.fit(width: animation.width, height: animation.height, into: side)
        let (width, height) = (fitted.width, fitted.height)
        let clock = StickerClock(delays: animation.delays, plays: animation.plays, policy: .apple)
        var iterator = animation.makeFrameIterator()
        guard animation.isAnimated else {
            guard let frame = try iterator.next() else { throw PackError.emptySequence(path: animation.sourcePath) }
            let image = Resampler().resize(RGBAImage(frame), width: width, height: height)
            return Encoded(bytes: SnapshotEncoder.png(image), width: width, height: height)
        }
        var writer = APNGWriter(width: width, height: height, frameCount: animation.frameCount, plays: animation.plays)
        var previous: RGBAImage?
        var fullest: (image: RGBAImage, visible: Int)?
        var index = 0
        while index < animation.frameCount, let frame = try iterator.next() {
            let image = Resampler().resize(RGBAImage(frame), width: width, height: height)
            let visible = stride(from: 3, to: image.pixels.count, by: 4).reduce(0) {
                $0 + (image.pixels[$1] > 0 ? 1 : 0)
            }
            if visible > (fullest?.visible ?? -1) { fullest = (image, visible) }
            let changed =
                previous.map { image.changedRect(from: $0) } ?? PixelRect(x: 0, y: 0, width: width, height: height)
            let start = clock.starts[index]
            SnapshotEncoder.appendFrame(
                image, changed: changed, start: start, end: start + clock.durations[index], to: &writer)
            previous = image
            index += 1
        }
        // A file that ends before its declared frames is as unreadable as a truncated one.
        guard index == animation.frameCount else { throw PackError.unreadable(path: animation.sourcePath) }
        return Encoded(
            bytes: writer.finish(), width: width, height: height, still: fullest.map { SnapshotEncoder.png($0.image) })
    }
}
