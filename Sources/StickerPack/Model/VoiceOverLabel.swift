/// What VoiceOver reads for a sticker: Messages reads its accessibility label (Apple asks for
/// "a succinct, localized description" of the sticker), else its name. A file's name makes a
/// poor label as it stands (`01-bouncing-blob`, `IMG_2041`), so a label is made from it, and a
/// label that still names a file rather than the picture is told apart.
public enum VoiceOverLabel {
    /// The label made from a file's `name`: an image extension and a scale suffix dropped
    /// (`.png`, `@2x`), an order number written with a leading zero and its separator dropped
    /// (`01-`, `007_`; `1-up` and `12 days` stay), `-`, `_` and `.` read as spaces, camel case
    /// split into words (`thumbsUpBig`; not `iPhone`), the split words lowercased but for those
    /// with capitals inside (`NASA`, `3D`), and the first letter capitalised (not `iPhone`'s).
    /// A name with nothing left is kept as it is.
    public static func fromFileName(_ name: String) -> String {
        var text = Substring(name)
        for suffix in imageExtensions where text.lowercased().hasSuffix(suffix) {
            text = text.dropLast(suffix.count)
            break
        }
        if let at = text.lastIndex(of: "@") {
            let scale = text[text.index(after: at)...]
            if scale.count == 2, scale.first?.isASCIIDigit == true, scale.last == "x" { text = text[..<at] }
        }
        // An order number with a leading zero before a separator: "01-", "007_", "00.".
        let digits = text.prefix(while: \.isASCIIDigit)
        if digits.count >= 2, digits.first == "0", let separator = text.dropFirst(digits.count).first,
            "-_. ".contains(separator), text.dropFirst(digits.count + 1).contains(where: \.isLetter)
        {
            text = text.dropFirst(digits.count + 1)
        }
        var words: [String] = []
        var word = ""
        var previous: Character?
        for character in text {
            if character == "-" || character == "_" || character == " " || character == "." {
                if !word.isEmpty { words.append(word) }
                word = ""
            } else if let last = previous, last.isLowercase, character.isUppercase, !word.isEmpty,
                !(word.count == 1 && words.isEmpty)
            {
                // camelCase: the capital starts a word (not after one leading lowercase letter:
                // iPhone, eBay).
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
            // A word of a split name is lowercased unless it has capitals inside (NASA, 3D, iPhone).
            split && index > 0 && !word.dropFirst().contains(where: \.isUppercase)
                && !(word.first?.isUppercase == true && word.count == 1) ? word.lowercased() : word
        }.joined(separator: " ")
        if let first = label.first, first.isLowercase, !(label.dropFirst().first?.isUppercase ?? false) {
            label = first.uppercased() + label.dropFirst()
        }
        return label
    }

    /// Image file extensions, lowercased, as a name may still carry them.
    static let imageExtensions = [".png", ".apng", ".gif", ".jpg", ".jpeg", ".webp", ".webm", ".tgs", ".json"]

    /// Words a camera, an editor or an export names files with, which say nothing of a picture.
    static let cameraWords: Set<String> = [
        "img", "image", "dsc", "dscn", "dscf", "pxl", "mvimg", "vid", "screenshot", "untitled", "unnamed", "artboard"
    ]
    /// Words that say nothing of a picture beside a number or a camera word.
    static let fileWords: Set<String> = [
        "photo", "pic", "picture", "screen", "shot", "at", "sticker", "stickers", "layer", "frame", "export", "file",
        "copy", "final", "new", "asset"
    ]

    /// Why `label` reads as a file's name rather than as what the sticker shows, or `nil`:
    /// underscores (read aloud as such), an image file's extension, a number of four digits or
    /// more that is no year, or only numbers and words such as `IMG`, `Screenshot`, `Artboard`,
    /// `final`, `copy` and `v2` with a number or a camera's word among them (`IMG 2041`,
    /// `Sticker 3 final v2`; `New` alone, or `100`, may describe a sticker).
    public static func fileNameLikeness(_ label: String) -> String? {
        if label.contains("_") { return "it holds underscores, which VoiceOver may read aloud" }
        let lowered = label.lowercased()
        for suffix in imageExtensions where lowered.hasSuffix(suffix) {
            return "it ends in the file extension \(suffix)"
        }
        // Words, with letters and digits apart (DSC01234) and brackets and @ as spaces.
        var words: [String] = []
        var word = ""
        for character in lowered {
            if " -.:()[]@".contains(character) {
                if !word.isEmpty { words.append(word) }
                word = ""
                continue
            }
            if let last = word.last, last.isNumber != character.isNumber, !(last == "v" && word.count == 1) {
                words.append(word)
                word = ""
            }
            word.append(character)
        }
        if !word.isEmpty { words.append(word) }
        guard !words.isEmpty else { return nil }
        let isNumber = { (word: String) in word.allSatisfy(\.isNumber) }
        let isVersion = { (word: String) in
            word.first == "v" && word.count > 1 && word.dropFirst().allSatisfy(\.isNumber)
        }
        if words.count == 1, isNumber(words[0]) {
            let year = Int(words[0]).map { (1900...2099).contains($0) } ?? false
            return words[0].count >= 4 && !year ? "it is only a number" : nil
        }
        let saysNothing = words.allSatisfy {
            isNumber($0) || isVersion($0) || cameraWords.contains($0) || fileWords.contains($0)
        }
        let hasAnchor = words.contains { isNumber($0) || isVersion($0) || cameraWords.contains($0) }
        return saysNothing && hasAnchor ? "it holds only numbers and the words of a file's name" : nil
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
