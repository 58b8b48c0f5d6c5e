import CText

/// A paragraph's characters with the embedding levels the Unicode Bidirectional Algorithm
/// (UAX #9) resolves for them, from FriBidi: even levels read left to right, odd levels right to
/// left, and a line shows its runs in the order rule L2 gives (``BidiParagraph/visualOrder(of:)``).
struct BidiParagraph {
    /// The paragraph's own level: 1 when its first strong character is right to left (a Hebrew
    /// or Arabic letter, rules P2 and P3), otherwise 0.
    let baseLevel: UInt8
    /// One level a character: its first scalar's (a mark takes its base's level, rule W1).
    let levels: [UInt8]
    /// Whether it holds right-to-left text but FriBidi is not installed, so every level is 0
    /// and that text reads backwards.
    let isUnordered: Bool

    /// The Debian package FriBidi comes from.
    static var package: String { String(cString: sticker_bidi_package_name()) }

    /// `characters`' levels. Text with no right-to-left character and no explicit direction
    /// control is all level 0 without asking FriBidi, so left-to-right text needs no FriBidi.
    init(_ characters: [Character]) {
        let scalars = characters.flatMap { $0.unicodeScalars.map(\.value) }
        guard scalars.contains(where: Self.mayReadRightToLeft) else {
            self.init(baseLevel: 0, levels: Array(repeating: 0, count: characters.count), isUnordered: false)
            return
        }
        var scalarLevels = [UInt8](repeating: 0, count: scalars.count)
        let base = sticker_bidi_levels(scalars, Int32(scalars.count), &scalarLevels)
        guard base >= 0 else {
            self.init(baseLevel: 0, levels: Array(repeating: 0, count: characters.count), isUnordered: true)
            return
        }
        var levels: [UInt8] = []
        levels.reserveCapacity(characters.count)
        var scalarIndex = 0
        for character in characters {
            levels.append(scalarLevels[scalarIndex])
            scalarIndex += character.unicodeScalars.count
        }
        self.init(baseLevel: UInt8(base), levels: levels, isUnordered: false)
    }

    private init(baseLevel: UInt8, levels: [UInt8], isUnordered: Bool) {
        self.baseLevel = baseLevel
        self.levels = levels
        self.isUnordered = isUnordered
    }

    /// Whether `scalar` can make text read right to left: a character of a right-to-left script
    /// (``RightToLeftText``), the right-to-left mark, or an explicit embedding, override or
    /// isolate (U+202A-202E, U+2066-2069).
    private static func mayReadRightToLeft(_ value: UInt32) -> Bool {
        guard let scalar = Unicode.Scalar(value) else { return false }
        return RightToLeftText.isRightToLeft(scalar) || value == 0x200F || (0x202A...0x202E).contains(value)
            || (0x2066...0x2069).contains(value)
    }

    /// The order rule L2 shows items of `levels` in, left to right: from the highest level down
    /// to the lowest odd one, every run of items at that level or higher is reversed.
    static func visualOrder(of levels: [UInt8]) -> [Int] {
        var order = Array(levels.indices)
        guard let highest = levels.max(), let lowestOdd = levels.filter({ $0 % 2 == 1 }).min() else { return order }
        for level in stride(from: Int(highest), through: Int(lowestOdd), by: -1) {
            var start = 0
            while start < order.count {
                guard levels[order[start]] >= level else {
                    start += 1
                    continue
                }
                var end = start
                while end < order.count && levels[order[end]] >= level { end += 1 }
                order[start..<end].reverse()
                start = end
            }
        }
        return order
    }
}
