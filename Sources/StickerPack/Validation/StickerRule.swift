/// One rule the validator checks. Errors break Apple's documented rules; warnings are lints
/// where Apple is vague (thresholds borrowed from other sticker platforms) or where a file
/// will work but not as its author expects.
public enum StickerRule: String, Sendable, Hashable, CaseIterable, Codable {
    /// The input is a pack that can be read: a folder holding images, a catalog whose
    /// `Contents.json` parses, files that exist. Error (the only finding when it is not).
    case pack
    /// The bytes are PNG, APNG, GIF or JPEG (sniffed, never from the extension). Error.
    case format
    /// The file decodes. Error.
    case decodes
    /// The file is under 500 KB: error from 512,000 bytes, warning from 500,000 (KB or KiB).
    case fileSize = "file-size"
    /// Each side is 300-618 px (100-206 pt @3x). Error.
    case pixelSize = "pixel-size"
    /// The image is square. Warning.
    case square
    /// The side is exactly the @3x size of the pack's `grid-size`. Warning.
    case gridSize = "grid-size"
    /// Every sticker of the pack has the same size. Warning.
    case mixedSizes = "mixed-sizes"
    /// No two stickers share a name (letter case aside): a catalog holds one sticker of a name.
    /// Warning.
    case duplicateName = "duplicate-name"
    /// The description (accessibility label, else the name) is at most 150 characters. Error.
    case descriptionLength = "description-length"
    /// What VoiceOver reads (the catalog's label, else the sticker's name; for a folder, the
    /// label `stickers fit` makes from the file's name) says what the sticker shows rather than
    /// naming a file: no underscores, no image extension, not only numbers and words such as
    /// `IMG`, `Screenshot` or `final` (``VoiceOverLabel/fileNameLikeness(_:)``). Warning.
    case voiceOverLabel = "voiceover-label"
    /// An APNG still animates: its acTL is intact and holds more than one frame. Warning.
    case lostAnimation = "lost-animation"
    /// The file decodes whole, with nothing the decoder had to work around (data ending early,
    /// an invalid LZW code, corrupt JPEG data, a chunk with a bad CRC): browsers show what
    /// they can recover, other players may not. Warning.
    case damaged
    /// The PNG is not an Apple CgBI file (Xcode's iOS-optimised PNG). Warning.
    case cgbi
    /// Some pixel is transparent: stickers sit over bubbles and photos. Warning.
    case transparency
    /// Some pixel of some frame is visible: a sticker that is wholly transparent shows nothing
    /// (a Lottie whose only layer is text rlottie does not draw, artwork exported hidden).
    /// Warning.
    case blank
    /// Everything the file holds is drawn: a Lottie text layer or expression, which rlottie
    /// leaves out, is named (every frame lacks it, and so does what `stickers fit` makes of it).
    /// Warning.
    case notDrawn = "not-drawn"
    /// The sticker does not flash more than three times in any second over a quarter of it
    /// (WCAG 2.3.1's general flash: a pair of opposing changes of a tenth of the luminance
    /// range, the darker side under 0.80), which can trigger seizures. Warning.
    case flashing
    /// No frame is under 11 ms (Messages shows those for 100 ms). Warning.
    case shortDelay = "short-delay"
    /// One loop lasts at most the threshold (4 s by default). Warning.
    case loopDuration = "loop-duration"
    /// The animation has at most the threshold's frames (60 by default). Warning.
    case frameCount = "frame-count"
    /// The average frame rate is at most the threshold (30 fps by default). Warning.
    case frameRate = "frame-rate"
    /// All frames decoded take at most the threshold's bytes (128 MiB by default). Warning.
    case playbackCost = "playback-cost"
    /// The catalog says `stickers fit` made the sticker with visible loss (under 30 dB PSNR or
    /// SSIM 0.90 against the original, see ``FitLoss``). Warning.
    case fitLoss = "fit-loss"
    /// The catalog needed a workaround (a misspelt key, a missing list). Warning.
    case catalog
    /// Everything in the pack's folder is in the pack: a file that is not an image, a
    /// sub-folder, a link to nothing or a sticker folder the catalog's list does not name is
    /// left out, and named. Warning.
    case leftOut = "left-out"
    /// The catalog's iMessage app icon set has every size Apple lists, each entry under the idiom
    /// and platform App Store Connect expects, each a PNG of the right pixel size, and opaque
    /// marketing icons (1024x1024 and 1024x768). Error.
    case iconSet = "icon-set"
    /// An Xcode project has the targets, phases, files and Info.plist keys a sticker pack app
    /// needs: the Messages app, the sticker pack extension embedded in it, the catalog in the
    /// extension's resources. Error.
    case project
    /// The app's and the extension's bundle identifiers use only letters, digits, `-` and `.`,
    /// and the extension's extends the app's. Error.
    case bundleIdentifier = "bundle-identifier"
    /// The version (`CFBundleShortVersionString`) and build (`CFBundleVersion`) are one to three
    /// integers separated by periods, the same in the app and its extension. Error.
    case version
    /// The name under the app's icon is given (error); a warning past 12 characters, where
    /// Messages' app drawer cuts it short.
    case displayName = "display-name"
}
