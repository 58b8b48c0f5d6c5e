/// One thing `fit` did to a sticker, in order: exact steps keep every pixel (of the scaled
/// image), lossy ones are named with what they cost.
public struct FitStep: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The kinds of step.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// Scaled (premultiplied Lanczos 3) so the longer side is the size's pixel side.
        case scale
        /// Padded to a square with transparent pixels.
        case pad
        /// Consecutive identical frames merged into one longer frame.
        case mergeRepeats = "merge-repeats"
        /// Encoded exactly (PNG or APNG, the smallest colour type, cropped frames, best ops).
        case encode
        /// The input file kept as it is: nothing needed changing and it is the smaller file.
        case keepOriginal = "keep-original"
        /// Lossy: colours reduced to a palette (256 down to 16, with alpha).
        case palette
        /// Lossy: an opaque still written as JPEG.
        case jpeg
        /// Lossy: frames dropped to a lower frame rate, delays summed so the loop keeps its length.
        case frameRate = "frame-rate"
        /// Lossy: a pixel within a small error of what the previous frame shows stays as it is.
        case tolerance = "inter-frame-tolerance"
        /// The lossy search: the candidates compared and the one chosen.
        case search
        /// Lossy: every colour kept, with fewer bits a colour channel.
        case precision = "colour-precision"
        /// Lossy: made for a smaller size class.
        case smallerSize = "smaller-size"
        /// Lossy: only the first seconds of the animation kept (`--max-duration`), at their own speed.
        case maxDuration = "max-duration"
        /// Lossy: frames dropped to the highest frame rate asked for (`--max-fps`), the loop's
        /// length kept.
        case maxFrameRate = "max-fps"
        /// The VoiceOver label, taken from a name over Messages' 150 characters, shortened to
        /// them, or holding control characters, left out.
        case label
        /// Named anew in the catalog: another sticker has its name, or the name cannot name a
        /// folder (empty, hidden, or over 200 bytes, cut there).
        case rename
        /// Frames stored under 11 ms that browsers and Messages show for 100 ms: made as shown,
        /// so the loop is longer than its stored delays add up to.
        case shortDelays = "short-delays"
    }

    /// What was done.
    public var kind: Kind
    /// The particulars (`408x306 -> 408x408`, `palette of 256 colours`).
    public var detail: String
    /// Whether pixels or frames were given up.
    public var isLossy: Bool
    /// The file size after this step, when it produced a file.
    public var bytesAfter: Int?
    /// The largest channel error against the scaled original after this step, when measured.
    public var maxError: Int?
    /// PSNR in dB after this step, when measured (`nil` also when exact: infinite).
    public var psnr: Double?

    /// Creates a step.
    public init(
        _ kind: Kind, _ detail: String, isLossy: Bool = false, bytesAfter: Int? = nil, maxError: Int? = nil,
        psnr: Double? = nil
    ) {
        self.kind = kind
        self.detail = detail
        self.isLossy = isLossy
        self.bytesAfter = bytesAfter
        self.maxError = maxError
        self.psnr = psnr
    }

    /// What a lossy step gave up, in a few words (`frame rate 30.0 -> 7.5 fps (every 4th frame)`,
    /// `128 colours`, `size regular -> small (300 px)`); `nil` for an exact step or the search's summary.
    public var givenUp: String? {
        guard isLossy else { return nil }
        switch kind {
        case .frameRate: return "frame rate " + (detail.components(separatedBy: ", ").first ?? detail)
        case .palette: return detail.components(separatedBy: " with alpha").first
        case .tolerance: return "inter-frame tolerance " + detail.filter(\.isNumber)
        case .precision: return detail.components(separatedBy: ",").first.map { "colour precision " + $0 }
        case .scale: return "softer scaling (bicubic)"
        case .jpeg: return "JPEG " + detail
        case .smallerSize: return "size " + detail
        case .maxDuration: return detail.components(separatedBy: " kept").first
        case .maxFrameRate: return "frame rate " + (detail.components(separatedBy: ", ").first ?? detail)
        case .search, .encode, .keepOriginal, .pad, .mergeRepeats, .label, .rename, .shortDelays: return nil
        }
    }

    /// `palette (lossy): 256 colours -> 412,118 bytes, max error 9, 41.2 dB`.
    public var description: String {
        var text = kind.rawValue + (isLossy ? " (lossy)" : "") + ": " + detail
        if let bytesAfter { text += " -> \(bytesAfter) bytes" }
        if isLossy, let maxError {
            text += ", max error \(maxError)" + (psnr.map { String(cFormat: ", %.1f dB", $0) } ?? "")
        }
        return text
    }
}
