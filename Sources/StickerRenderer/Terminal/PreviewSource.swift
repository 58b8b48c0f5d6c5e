import AnimationCodec
import StickerPack
import StickerPixels

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

extension PreviewSource {
    /// How many loops of ``loopDuration`` play before the picture rests (0: forever): what a
    /// terminal that plays the animation itself is asked for when `--loops` is not given, so a
    /// sticker that plays once or four times does so there too. A browser whose stickers end at
    /// different times plays the loops that reach the last end.
    public var loopsPlayed: Int {
        guard let end = endTime, loopDuration > 0 else { return 0 }
        return max(1, Int((end / loopDuration - 1e-9).rounded(.up)))
    }
}
