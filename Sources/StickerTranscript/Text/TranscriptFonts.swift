import FoundationEssentials
import StickerRenderer

/// The font files the transcript is set in: Inter (Debian's fonts-inter) standing in for SF Pro,
/// and Noto Color Emoji (fonts-noto-color-emoji) for emoji.
public struct TranscriptFonts: Sendable, Hashable {
    /// A weight the transcript uses.
    public enum Weight: Sendable, Hashable {
        /// Body text, captions, the date.
        case regular
        /// "Delivered" and titles.
        case semibold
    }

    /// The regular text font.
    public var regular: String
    /// The semibold text font (the regular one when only that is given).
    public var semibold: String
    /// The colour-emoji font, if installed.
    public var emoji: String?
    /// Whether the text fonts are Debian's Inter (for the install hint).
    public var isDefault: Bool

    /// Debian's paths.
    public static let debianInter = "/usr/share/fonts/opentype/inter/Inter-Regular.otf"
    /// Debian's path for Inter SemiBold.
    public static let debianInterSemiBold = "/usr/share/fonts/opentype/inter/Inter-SemiBold.otf"
    /// Debian's path for Noto Color Emoji.
    public static let debianEmoji = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"

    /// Debian's fonts, or `font` for all text when given.
    public init(font: String? = nil) {
        regular = font ?? Self.debianInter
        semibold = font ?? Self.debianInterSemiBold
        isDefault = font == nil
        emoji = FileManager.default.fileExists(atPath: Self.debianEmoji) ? Self.debianEmoji : nil
    }

    /// The file for `weight`.
    public func path(_ weight: Weight) -> String { weight == .regular ? regular : semibold }

    /// The package that installs `weight`'s file, when it is the default.
    public func package(_ weight: Weight) -> String? { isDefault ? "fonts-inter" : nil }
}
