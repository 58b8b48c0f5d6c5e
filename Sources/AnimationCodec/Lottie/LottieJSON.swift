/// A strict JSON reader (RFC 8259) that checks a Lottie document before rlottie parses it and
/// keeps only what the decoder needs: the top-level keys and their numbers (`w`, `h`, `fr`,
/// `ip`, `op`). Nesting is bounded, so a hostile file cannot exhaust the stack here or in
/// rlottie's recursive model builder, and so are repeaters (shapes of `"ty": "rp"`, whose
/// `"c"` copies what comes before them): rlottie builds every copy, so a repeater of a hundred
/// million copies in a few hundred bytes would take gigabytes. For the same reason the layers
/// are counted with every copy of a precomposition (a layer of `"refId"` naming an asset with
/// `"layers"`): rlottie builds each use of one anew, so precompositions that use the next one
/// twice double the layers at every level.
struct LottieJSON {
    /// Why a document was refused, and where.
    struct SyntaxError: Error {
        var reason: String
        /// The byte the reader stopped at; `nil` for a document refused as a whole.
        var offset: Int?
        /// Whether the text ended before the document did (a cut file, or a sniffed head).
        var endedEarly: Bool
    }

    /// The keys every Lottie document's top level has (Bodymovin's export: version, frame rate,
    /// in and out points, size, layers).
    static let documentKeys: Set<String> = ["v", "fr", "ip", "op", "w", "h", "layers"]
    /// The deepest nesting accepted; real animations stay far below it.
    static let maxDepth = 128
    /// The most copies one repeater may make, and all repeaters' copies multiplied together
    /// (nested repeaters multiply; counting independent ones as if nested is the safe side).
    static let maxRepeaterCopies = 1000.0
    static let maxRepeaterProduct = 100_000.0
    /// The most layers a document may come to with every precomposition's copies (real
    /// stickers have tens to a few hundred; rlottie takes about 3 KB a layer and a frame's
    /// drawing time grows with them).
    static let maxExpandedLayers = 20_000

    /// The top-level keys, in order.
    private(set) var keys: [String] = []
    /// The top-level numbers, by key.
    private(set) var numbers: [String: Double] = [:]
    /// The top-level keys whose values are arrays.
    private(set) var arrays: Set<String> = []
    /// Each top-level member as it stands in the text: the whole member (from its key's quote)
    /// and its value, in order.
    private(set) var members: [(key: String, member: Range<Int>, value: Range<Int>)] = []
    /// Text layers (objects of `"ty": 5` with a `"t"` object, the text document) and
    /// expressions (`"x"` keys of string value): rlottie draws neither.
    private(set) var textLayers = 0
    private(set) var expressions = 0

    private let text: UnsafeBufferPointer<UInt8>
    private var offset = 0
    /// Whether numbers read now are part of a `"c"` value, and the largest of them.
    private var collectingCount = false
    private var largestCount = 0.0
    /// Every repeater's copies multiplied together so far.
    private var repeaterProduct = 1.0
    /// The `"refId"` of each layer of the array being read, innermost last (`nil` for a layer
    /// with none).
    private var layerReferences: [[String?]] = []
    /// The top level's layers' references, and each asset's with layers (a precomposition), by id.
    private var rootLayers: [String?] = []
    private var precompositions: [String: [String?]] = [:]
    /// Every top-level asset's id (images and precompositions alike).
    private(set) var assetIDs: Set<String> = []
    /// Each shape layer matted by the layer before it (a layer of `"ty": 4` with a `"tt"` of 1
    /// to 4), at any depth: where its `"shapes"` array closes and whether it holds anything.
    private(set) var mattedShapeLayers: [(closingBracket: Int, isEmpty: Bool)] = []
    /// Solid and image layers (`"ty"` 1 and 2) matted by the layer before them.
    private(set) var mattedSolidOrImageLayers = 0

    /// Reads a whole document.
    static func read(_ bytes: [UInt8]) throws(SyntaxError) -> LottieJSON {
        let result: Result<LottieJSON, SyntaxError> = bytes.withUnsafeBufferPointer { text in
            var reader = LottieJSON(text: text)
            do throws(SyntaxError) {
                try reader.readDocument()
                try reader.checkExpandedLayers()
                return .success(reader)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Whether `head`, the start of a file, reads as a Lottie document: a JSON object whose
    /// top-level keys, read until `head` ends or the text stops being valid JSON, include four
    /// of ``documentKeys``. (What breaks after them is the decoder's to report.)
    static func looksLikeLottie(_ head: [UInt8]) -> Bool {
        head.withUnsafeBufferPointer { text in
            var reader = LottieJSON(text: text)
            try? reader.readDocument()
            return Set(reader.keys).intersection(documentKeys).count >= 4
        }
    }

    private init(text: UnsafeBufferPointer<UInt8>) { self.text = text }

    private mutating func readDocument() throws(SyntaxError) {
        skipSpace()
        guard peek() == UInt8(ascii: "{") else { throw error("a Lottie document is a JSON object") }
        try readValue(depth: 0)
        skipSpace()
        guard offset == text.count else { throw error("text after the document") }
    }

    /// What an array's elements are: layers (their references are noted), the top level's
    /// assets (those with layers are the precompositions), or anything else.
    private enum Element {
        case other, layer, asset
    }

    private mutating func readValue(depth: Int, element: Element = .other) throws(SyntaxError) {
        guard depth < Self.maxDepth else { throw error("nested more than \(Self.maxDepth) levels deep") }
        skipSpace()
        guard let byte = peek() else { throw error("a value is missing") }
        switch byte {
        case UInt8(ascii: "{"): try readObject(depth: depth, element: element)
        case UInt8(ascii: "["): try readArray(depth: depth)
        case UInt8(ascii: "\""): _ = try readString(keeping: false)
        case UInt8(ascii: "t"): try readLiteral("true")
        case UInt8(ascii: "f"): try readLiteral("false")
        case UInt8(ascii: "n"): try readLiteral("null")
        default: _ = try readNumber()
        }
    }

    private mutating func readObject(depth: Int, element: Element) throws(SyntaxError) {
        offset += 1
        skipSpace()
        if peek() == UInt8(ascii: "}") {
            offset += 1
            if element == .layer { layerReferences[layerReferences.count - 1].append(nil) }
            return
        }
        var id: String?
        var reference: String?
        var layers: [String?]?
        var isRepeater = false
        var copies = 0.0
        var isTypeFive = false
        var hasTextDocument = false
        var layerType: Double?
        var matteType: Double?
        var shapes: (closingBracket: Int, isEmpty: Bool)?
        while true {
            skipSpace()
            guard peek() == UInt8(ascii: "\"") else { throw error("an object key must be a string") }
            let keyStart = offset + 1
            let key = try readString(keeping: depth == 0)
            let keyBytes = UnsafeBufferPointer(rebasing: text[keyStart..<offset - 1])
            skipSpace()
            guard peek() == UInt8(ascii: ":") else { throw error("':' expected after a key") }
            offset += 1
            skipSpace()
            let memberValueStart = offset
            if keyBytes.elementsEqual("ty".utf8), peek() == UInt8(ascii: "\"") {
                let valueStart = offset + 1
                _ = try readString(keeping: false)
                isRepeater = UnsafeBufferPointer(rebasing: text[valueStart..<offset - 1]).elementsEqual("rp".utf8)
            } else if keyBytes.elementsEqual("ty".utf8), let byte = peek(), byte.isDigit {
                let type = try readNumber()
                isTypeFive = type == 5
                layerType = type
            } else if keyBytes.elementsEqual("tt".utf8), element == .layer, let byte = peek(), byte.isDigit {
                matteType = try readNumber()
            } else if keyBytes.elementsEqual("shapes".utf8), element == .layer, peek() == UInt8(ascii: "[") {
                let open = offset
                try readValue(depth: depth + 1)
                let inner = text[(open + 1)..<(offset - 1)]
                shapes = (offset - 1, inner.allSatisfy(Self.isSpace))
            } else if keyBytes.elementsEqual("t".utf8), depth > 0, peek() == UInt8(ascii: "{") {
                hasTextDocument = true
                try readValue(depth: depth + 1)
            } else if keyBytes.elementsEqual("layers".utf8), peek() == UInt8(ascii: "[") {
                if depth == 0 {
                    keys.append(key)
                    arrays.insert(key)
                }
                guard depth + 1 < Self.maxDepth else { throw error("nested more than \(Self.maxDepth) levels deep") }
                layerReferences.append([])
                try readArray(depth: depth + 1, of: .layer)
                // rlottie adds a repeated "layers" array's layers to the ones before.
                layers = (layers ?? []) + layerReferences.removeLast()
            } else if keyBytes.elementsEqual("assets".utf8), depth == 0, peek() == UInt8(ascii: "[") {
                keys.append(key)
                arrays.insert(key)
                try readArray(depth: depth + 1, of: .asset)
            } else if keyBytes.elementsEqual("refId".utf8), peek() == UInt8(ascii: "\"") {
                reference = try readString(keeping: true)
            } else if keyBytes.elementsEqual("id".utf8), element == .asset, let byte = peek() {
                // rlottie takes a number as an asset's id too, written as an integer.
                if byte == UInt8(ascii: "\"") {
                    id = try readString(keeping: true)
                } else {
                    let number = try readNumber()
                    id = number.isFinite && abs(number) < 1e15 ? String(Int(number)) : nil
                }
            } else if keyBytes.elementsEqual("x".utf8), depth > 0, peek() == UInt8(ascii: "\"") {
                expressions += 1
                _ = try readString(keeping: false)
            } else if keyBytes.elementsEqual("c".utf8) {
                let outer = (collectingCount, largestCount)
                (collectingCount, largestCount) = (true, 0)
                try readValue(depth: depth + 1)
                copies = largestCount
                (collectingCount, largestCount) = (outer.0, max(outer.1, largestCount))
            } else if depth == 0 {
                keys.append(key)
                if let byte = peek(),
                    byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                {
                    numbers[key] = try readNumber()
                } else {
                    if peek() == UInt8(ascii: "[") { arrays.insert(key) }
                    try readValue(depth: depth + 1)
                }
            } else {
                try readValue(depth: depth + 1)
            }
            if depth == 0 { members.append((key, keyStart - 1..<offset, memberValueStart..<offset)) }
            skipSpace()
            guard let next = peek() else { throw error("the object is not closed") }
            offset += 1
            if next == UInt8(ascii: "}") {
                if isRepeater { try countRepeater(copies) }
                if isTypeFive && hasTextDocument { textLayers += 1 }
                if element == .layer {
                    layerReferences[layerReferences.count - 1].append(reference)
                    if let matteType, (1...4).contains(matteType) {
                        if layerType == 4, let shapes { mattedShapeLayers.append(shapes) }
                        if layerType == 1 || layerType == 2 { mattedSolidOrImageLayers += 1 }
                    }
                }
                if element == .asset, let id { assetIDs.insert(id) }
                if let layers {
                    if depth == 0 {
                        rootLayers = layers
                    } else if element == .asset, let id {
                        // rlottie finds an asset by id among the top level's; the last one wins.
                        precompositions[id] = layers
                    }
                }
                return
            }
            guard next == UInt8(ascii: ",") else { offset -= 1; throw error("',' or '}' expected") }
        }
    }

    /// Checks a repeater of `copies` against the bounds.
    private mutating func countRepeater(_ copies: Double) throws(SyntaxError) {
        guard copies <= Self.maxRepeaterCopies else {
            throw error("a repeater makes \(copies) copies, more than \(Int(Self.maxRepeaterCopies))")
        }
        repeaterProduct *= max(1, copies)
        guard repeaterProduct <= Self.maxRepeaterProduct else {
            throw error("repeaters make \(repeaterProduct) copies together, more than \(Int(Self.maxRepeaterProduct))")
        }
    }

    /// Checks the layers the document comes to, each precomposition counted as often as it is
    /// used, against ``maxExpandedLayers``; a precomposition that uses itself, or precompositions
    /// nested deeper than ``maxDepth``, are refused too (rlottie's builder recurses through them).
    private func checkExpandedLayers() throws(SyntaxError) {
        var counted: [String: Int] = [:]
        var open: Set<String> = []
        let limit = Self.maxExpandedLayers
        // Layers under `references`, saturating just above the limit.
        func count(_ references: [String?], level: Int) throws(SyntaxError) -> Int {
            guard level < Self.maxDepth else {
                throw refusal("precompositions nested more than \(Self.maxDepth) levels deep")
            }
            var total = 0
            for reference in references {
                total += 1
                if let reference, let layers = precompositions[reference] {
                    if let known = counted[reference] {
                        total += known
                    } else {
                        guard open.insert(reference).inserted else {
                            throw refusal("the precomposition \"\(reference)\" uses itself")
                        }
                        let inner = try count(layers, level: level + 1)
                        open.remove(reference)
                        counted[reference] = inner
                        total += inner
                    }
                }
                if total > limit { return limit + 1 }
            }
            return total
        }
        guard try count(rootLayers, level: 0) <= limit else {
            throw refusal(
                "its layers, each precomposition counted as often as it is used, come to more than \(limit)")
        }
    }

    private mutating func readArray(depth: Int, of element: Element = .other) throws(SyntaxError) {
        offset += 1
        skipSpace()
        if peek() == UInt8(ascii: "]") { offset += 1; return }
        while true {
            try readValue(depth: depth + 1, element: element)
            skipSpace()
            guard let next = peek() else { throw error("the array is not closed") }
            offset += 1
            if next == UInt8(ascii: "]") { return }
            guard next == UInt8(ascii: ",") else { offset -= 1; throw error("',' or ']' expected") }
        }
    }

    /// Reads a string; returns it only when `keeping` (top-level keys), else "".
    private mutating func readString(keeping: Bool) throws(SyntaxError) -> String {
        let start = offset + 1
        offset += 1
        while let byte = peek() {
            switch byte {
            case UInt8(ascii: "\""):
                offset += 1
                return keeping
                    ? String(decoding: UnsafeBufferPointer(rebasing: text[start..<offset - 1]), as: UTF8.self) : ""
            case UInt8(ascii: "\\"):
                offset += 1
                guard let escaped = peek() else { break }
                switch escaped {
                case UInt8(ascii: "u"):
                    for _ in 0..<4 {
                        offset += 1
                        guard let digit = peek() else { throw error("a string is not closed") }
                        guard digit.isHexDigit else { throw error("invalid \\u escape") }
                    }
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                    UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    break
                default: throw error("invalid escape in a string")
                }
                offset += 1
            case 0..<0x20:
                throw error("a control character in a string")
            case 0x80...:
                // RFC 8259 section 8.1: JSON text is UTF-8.
                guard let length = utf8SequenceLength(at: offset) else { throw error("a string is not UTF-8") }
                offset += length
            default:
                offset += 1
            }
        }
        throw error("a string is not closed")
    }

    /// The length of the well-formed UTF-8 sequence starting at `position` (RFC 3629 section 4:
    /// no overlong forms, no surrogates, nothing past U+10FFFF), or `nil`.
    private func utf8SequenceLength(at position: Int) -> Int? {
        let lead = text[position]
        let length: Int
        let second: ClosedRange<UInt8>
        switch lead {
        case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
        case 0xE0: (length, second) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, second) = (3, 0x80...0xBF)
        case 0xED: (length, second) = (3, 0x80...0x9F)
        case 0xF0: (length, second) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
        case 0xF4: (length, second) = (4, 0x80...0x8F)
        default: return nil
        }
        guard position + length <= text.count, second.contains(text[position + 1]) else { return nil }
        for index in (position + 2)..<(position + length) where !(0x80...0xBF).contains(text[index]) { return nil }
        return length
    }

    private mutating func readNumber() throws(SyntaxError) -> Double {
        let start = offset
        if peek() == UInt8(ascii: "-") { offset += 1 }
        guard let first = peek(), first.isDigit else {
            throw error(peek() == nil ? "a number is cut short" : "unexpected character")
        }
        offset += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        if peek() == UInt8(ascii: ".") {
            offset += 1
            guard peek()?.isDigit == true else { throw error("digits expected after '.'") }
            skipDigits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            offset += 1
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { offset += 1 }
            guard peek()?.isDigit == true else { throw error("digits expected in an exponent") }
            skipDigits()
        }
        // A number is cut short if the text ends right after it (a sniffed head).
        if offset == text.count { throw error("the document ends in a number") }
        let value = Double(String(decoding: UnsafeBufferPointer(rebasing: text[start..<offset]), as: UTF8.self)) ?? .nan
        if collectingCount { largestCount = max(largestCount, value.isNaN ? .infinity : value) }
        return value
    }

    private mutating func readLiteral(_ literal: StaticString) throws(SyntaxError) {
        let count = literal.utf8CodeUnitCount
        for index in 0..<count {
            guard let byte = peek() else { throw error("a literal is cut short") }
            guard byte == literal.utf8Start[index] else { throw error("unexpected character") }
            offset += 1
        }
    }

    private mutating func skipDigits() {
        while let byte = peek(), byte.isDigit { offset += 1 }
    }

    private mutating func skipSpace() {
        while let byte = peek(), Self.isSpace(byte) { offset += 1 }
    }

    /// JSON's whitespace (RFC 8259 section 2): space, tab, line feed, carriage return.
    static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 }

    private func peek() -> UInt8? { offset < text.count ? text[offset] : nil }

    /// A whole document refused for what it comes to (not a place in its text).
    private func refusal(_ reason: String) -> SyntaxError {
        SyntaxError(reason: reason, offset: nil, endedEarly: false)
    }

    private func error(_ reason: String) -> SyntaxError {
        SyntaxError(reason: reason, offset: offset, endedEarly: offset >= text.count)
    }
}

extension UInt8 {
    fileprivate var isDigit: Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) }
    fileprivate var isHexDigit: Bool {
        isDigit || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
