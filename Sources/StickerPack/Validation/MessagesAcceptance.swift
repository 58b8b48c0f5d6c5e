import AnimationCodec
import FoundationEssentials

/// Whether Messages takes a sticker as it is, judged from its files' structure alone (no pixels
/// decoded): the quick check the drawing commands give beside a drawing that shows the sticker
/// all the same. `stickers validate` checks every rule; this checks the three that refuse a
/// sticker outright.
public enum MessagesAcceptance {
    /// The formats Messages reads in a sticker pack.
    public static let formats: Set<ImageFormat> = [.png, .apng, .gif, .jpeg]

    /// Why Messages refuses `sticker` as it is: a format it does not read, a side outside
    /// 300-618 px, a file of 500 KB or more. Empty when it takes it, and when the sticker cannot
    /// be read (which the drawing names on its own).
    public static func refusals(
        _ sticker: Sticker, limits: DecodingLimits = .default, thresholds: ValidationThresholds = .default
    ) -> [String] {
        guard let animation = try? StickerAnimation.load(sticker, limits: limits) else { return [] }
        var reasons: [String] = []
        let foreign = Set(animation.fileInfos.map(\.format)).subtracting(formats)
        for format in ImageFormat.allCases where foreign.contains(format) {
            switch format {
            case .webp: reasons.append("a WebP file")
            case .webm: reasons.append("a WebM video")
            case .lottie: reasons.append("a Lottie animation")
            default: reasons.append("a \(format) file")
            }
        }
        let sides = thresholds.minSide...thresholds.maxSide
        if !sides.contains(animation.width) || !sides.contains(animation.height) {
            reasons.append(
                "\(animation.width)x\(animation.height) px, outside \(thresholds.minSide)-\(thresholds.maxSide)")
        }
        for file in sticker.files {
            if let bytes = BoundedFile.size(file.path), bytes >= thresholds.fileBytesWarning {
                reasons.append("\(file.lastPathComponent) is \(bytes) bytes, not under 500 KB")
            }
        }
        return reasons
    }
}
