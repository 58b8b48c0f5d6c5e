import AnimationCodec
import StickerPack

extension StickerFitter {
    /// A sticker's input file, read again each time its frames are decoded. Its bytes (tens of
    /// megabytes for an APNG of photographs) are held only while its frames are decoded and
    /// scaled, not for the whole search, which holds the scaled frames.
    struct Input: Sendable {
        /// The sticker whose file this is.
        var sticker: Sticker
        /// The limits the file is read under: the caller's, but for the bytes of all its frames
        /// decoded together, which ``Source/checkDecodedBytes()`` holds to ``decodeLimit`` for the
        /// frames a fit decodes (fit decodes a few frames at a time and keeps them scaled).
        var limits: DecodingLimits
        /// The most bytes the frames a fit decodes may take at the file's size.
        var decodeLimit: Int
        /// The side a vector file is drawn at.
        var vectorSide: Int
        var width: Int
        var height: Int
        var frameCount: Int
        var plays: Int
        var format: ImageFormat
        /// Each frame's display time, in seconds, as it is shown (`StickerAnimation.shownDurations`).
        var durations: [Double]
        /// Each frame's delay as stored, in seconds: shorter than in `durations` where a frame
        /// stored under 11 ms shows for 100 ms.
        var storedDurations: [Double]
        /// What the decoder worked around in the file and in the frames decoded so far.
        let damage = InputDamage()

        /// How many frames of an animation show for longer than stored (a GIF's, APNG's or
        /// WebP's frame stored under 11 ms shows for 100 ms in Messages); 0 for a still.
        var lengthenedFrames: Int {
            guard frameCount > 1 else { return 0 }
            return zip(durations, storedDurations).filter { $0 > $1 + 1e-9 }.count
        }

        /// Reads `sticker`'s file once for what the fit needs to know of it; its bytes are let
        /// go on return.
        static func read(_ sticker: Sticker, limits: DecodingLimits, vectorSide: Int) throws(PackError) -> Input {
            // A clip longer than its frames at its size allow is read: its first seconds may fit.
            let reading = limits.withoutTotalDecodedBytes
            let animation = try StickerAnimation.load(sticker, limits: reading, vectorSide: vectorSide)
            let input = Input(
                sticker: sticker, limits: reading, decodeLimit: limits.maxTotalDecodedBytes, vectorSide: vectorSide,
                width: animation.width,
                height: animation.height, frameCount: animation.frameCount, plays: animation.plays,
                format: animation.fileInfos[0].format, durations: animation.shownDurations,
                storedDurations: animation.delays.map(\.seconds))
            input.damage.note(animation.fileWarnings)
            return input
        }

        /// How many of the first `count` frames differ from the frame before (the first always
        /// counts): the frames left once repeats are merged, decoded at the file's own size.
        func distinctFrames(amongFirst count: Int) throws -> Int {
            let animation = try load()
            var previous: [UInt8]?
            var distinct = 0
            try animation.forEachFrame(threads: 1, count: count) { index, frame in
                if frame.pixels != previous { distinct += 1 }
                previous = frame.pixels
            }
            return distinct
        }

        /// The file read and parsed again, ready to decode.
        /// - Throws: `PackError.changedWhileRead` when its frames are no longer the ones first read.
        func load() throws(PackError) -> StickerAnimation {
            let animation = try StickerAnimation.load(sticker, limits: limits, vectorSide: vectorSide)
            guard
                animation.width == width, animation.height == height, animation.frameCount == frameCount,
                animation.shownDurations == durations
            else { throw .changedWhileRead(path: animation.sourcePath) }
            return animation
        }
    }
}
