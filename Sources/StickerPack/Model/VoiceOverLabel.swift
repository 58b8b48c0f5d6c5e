/// What VoiceOver reads for a sticker: Messages reads its accessibility label (Apple asks for
/// "a succinct, localized description" of the sticker), else its name. A file's name makes a
/// poor label as it stands (`01-bouncing-blob`, `IMG_2041`), so a label is made from it, and a
/// label that still names a file rather than the picture is told apart.
public enum VoiceOverLabel {
    /// The label made from a file's `name`: a leading order number and its separator dropped
    /// (`01-`), `-` and `_` read as spaces, camel case split into words (`thumbsUpBig`), the
    /// words split so lowercased, and the first letter capitalised. A name with nothing left
    /// but the number is kept as it is.
    public static func fromFileName(_ name: String) -> String {
        var text = Substring(name)
        // An order number before a separator: "01-", "3_", "007." (not "12 days").
        let digits = text.prefix(while: \.isASCIIDigit)
        if !digits.isEmpty, let separator = text.dropFirst(digits.count).first, "-_.".contains(separator),
            text.dropFirst(digits.count + 1).contains(where: \.isLetter)
        {
            text = text.dropFirst(digits.count + 1)
        }
        var words: [String] = []
        var word = ""
        var previous: Character?
        for character in text {
            if character == "-" || character == "_" || character == " " {
                if !word.isEmpty { words.append(word) }
                word = ""
            } else if let last = previous, last.isLowercase, character.isUppercase, !word.isEmpty {
                // camelCase: the capital starts a word, lowercased unless the rest is capitals too.
                words.append(word)
                word = String(character)
            } else {
                word.append(character)
            }
            previous = character
        }
        if !word.isEmpty { words.append(word) }
        guard !words.isEmpty else { return name }
        let split = words.count > 1 && !name.contains(" ")
        var label = words.enumerated().map { index, word in
            // A word of camel case or of a separated name is lowercased; capitals alone (NASA) stay.
            split && index > 0 && !word.allSatisfy(\.isUppercase) ? word.lowercased() : word
        }.joined(separator: " ")
        if let first = label.first, first.isLowercase {
            label = first.uppercased() + label.dropFirst()
        }
        return label
    }

    /// Words a camera, an editor or an export names files with, which say nothing of a picture.
    static let fileWords: Set<String> = [
        "img", "image", "dsc", "dscn", "dscf", "pxl", "mvimg", "vid", "photo", "pic", "picture", "screenshot",
        "screen", "shot", "at", "sticker", "stickers", "untitled", "unnamed", "artboard", "layer", "frame", "export",
        "file", "copy", "final", "new", "asset"
    ]

    /// Why `label` reads as a file's name rather than as what the sticker shows, or `nil`:
    /// underscores (read aloud as such), an image file's extension, or only numbers and words
    /// such as `IMG`, `Screenshot`, `Artboard`, `final`, `copy` and `v2`.
    public static func fileNameLikeness(_ label: String) -> String? {
        if label.contains("_") { return "it holds underscores, which VoiceOver may read aloud" }
        let lowered = label.lowercased()
        for suffix in [".png", ".apng", ".gif", ".jpg", ".jpeg", ".webp", ".webm", ".tgs", ".json"]
        where lowered.hasSuffix(suffix) {
            return "it ends in the file extension \(suffix)"
        }
        let words = lowered.split(whereSeparator: { $0 == " " || $0 == "-" || $0 == "." || $0 == ":" })
        let saysNothing = words.allSatisfy { word in
            word.allSatisfy(\.isNumber) || fileWords.contains(String(word))
                || (word.first == "v" && word.count > 1 && word.dropFirst().allSatisfy(\.isNumber))
        }
        return saysNothing && !words.isEmpty ? "it holds only numbers and the words of a file's name" : nil
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
