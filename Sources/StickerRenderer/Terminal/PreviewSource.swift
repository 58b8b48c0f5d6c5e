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
