import AnimationCodec
import StickerPixels

/// The frame of a pack the icons are drawn from, when no artwork is given.
public enum IconFrame {
    /// Of the first made sticker that shows anything, its first frame whose visible area (the
    /// sum of its alpha) is at least nine tenths of its fullest frame's: an animation that pops
    /// in from nothing gives the icons its drawing, not its empty first frame, and a sticker
    /// that stays whole gives its first frame. When no made sticker shows anything, the first
    /// one's first frame (the icons are then the background alone; `validate` calls such
    /// stickers `blank`); `nil` when none was made.
    /// - Throws: ``CodecError`` when a made sticker's file does not decode.
    public static func choose(from stickers: [FittedSticker]) throws(CodecError) -> RGBAImage? {
        for sticker in stickers where sticker.succeeded {
            // A sequence's stills, or an animation's one file, in the order they play.
            let decoders = try sticker.files.map { file throws(CodecError) in try AnimationDecoder(bytes: file.bytes) }
            var areas: [(file: Int, frame: Int, area: Int)] = []
            for (index, decoder) in decoders.enumerated() {
                var frameIndex = 0
                try decoder.forEachFrame(threads: 1) { frame throws(CodecError) in
                    areas.append((index, frameIndex, visibleArea(frame.pixels)))
                    frameIndex += 1
                }
            }
            guard let fullest = areas.map(\.area).max(), fullest > 0 else { continue }
            // Integer arithmetic: area >= 0.9 * fullest.
            guard let chosen = areas.first(where: { $0.area * 10 >= fullest * 9 }) else { continue }
            return RGBAImage(try decoders[chosen.file].frame(at: chosen.frame))
        }
        guard let first = stickers.first(where: \.succeeded)?.files.first else { return nil }
        return RGBAImage(try AnimationDecoder(bytes: first.bytes).frame(at: 0))
    }

    /// The sum of every pixel's alpha (premultiplied RGBA8).
    static func visibleArea(_ pixels: [UInt8]) -> Int {
        var sum = 0
        var index = 3
        while index < pixels.count {
            sum += Int(pixels[index])
            index += 4
        }
        return sum
    }
}
