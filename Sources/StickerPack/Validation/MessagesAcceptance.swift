import AnimationCodec
import FoundationEssentials

/// Whether Messages takes a sticker as it is, judged from its files' structure alone (no pixels
/// decoded): the quick check the drawing commands give beside a drawing that shows the sticker
/// all the same. `stickers validate` checks every rule; this checks the three that refuse a
/// sticker outright.
public enum MessagesAcceptance {
    /// Why Messages refuses `sticker` as it is: a format it does not read, a side outside
    /// 300-618 px (a raster's), a file over 500 KB however read (`validate`'s errors; a file of 500,000 to
    /// 511,999 bytes is its warning, and not named here). Empty when it takes it, and when the sticker cannot
    /// be read (which the drawing names on its own).
    public static func refusals(
        _ sticker: Sticker, limits: DecodingLimits = .default, thresholds: ValidationThresholds = .default
    ) -> [String] {
        // A vector (Lottie) is read at the largest sticker side: its document's size is no reason.
        guard let animation = try? StickerAnimation.load(sticker, limits: limits, vectorSide: StickerSize.large.pixels)
        else { return [] }
        var reasons: [String] = []
        let formats = Set(animation.fileInfos.map(\.format))
        for (format, name) in [
            (ImageFormat.webp, "a WebP file"), (.webm, "a WebM video"), (.lottie, "a Lottie animation")
        ]
        where formats.contains(format) && !format.isMessagesFormat {
            reasons.append(name)
        }
        let sides = thresholds.minSide...thresholds.maxSide
        // A vector (Lottie) is drawn at any size: its document's is no reason.
        if !animation.isVector, !sides.contains(animation.width) || !sides.contains(animation.height) {
            reasons.append(
                "\(animation.width)x\(animation.height) px, outside \(thresholds.minSide)-\(thresholds.maxSide)")
        }
        for file in sticker.files {
            if let bytes = BoundedFile.size(file.path), bytes >= thresholds.fileBytesError {
                reasons.append("\(file.lastPathComponent) is \(bytes) bytes, over 500 KB")
            }
        }
        return reasons
    }
}
