/// A value of the OpenStep property list text Xcode keeps its projects in (`project.pbxproj`):
/// a string, an array or a dictionary. Numbers are strings in this format (`objectVersion = 56`).
public indirect enum OpenStepPlist: Sendable, Hashable {
    /// A quoted or bare string.
    case string(String)
    /// `( a, b, )`.
    case array([OpenStepPlist])
    /// `{ key = value; }`; a key written twice keeps its last value.
    case dictionary([String: OpenStepPlist])

    /// The string, when this is one.
    public var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    /// The elements, when this is an array.
    public var array: [OpenStepPlist]? {
        if case .array(let value) = self { return value }
        return nil
    }

    /// The entries, when this is a dictionary.
    public var dictionary: [String: OpenStepPlist]? {
        if case .dictionary(let value) = self { return value }
        return nil
    }

    /// `self[key]` of a dictionary; `nil` for a missing key or a value that is not a dictionary.
    public subscript(key: String) -> OpenStepPlist? { dictionary?[key] }

    /// How a text failed to parse: the line and what was expected there.
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        /// The 1-based line.
        public var line: Int
        /// What was wrong.
        public var reason: String

        /// `line 12: expected ';'`.
        public var description: String { "line \(line): \(reason)" }
    }

    /// The deepest nesting read; Xcode's projects nest five levels.
    public static let maxDepth = 64

    /// Parses the text of a property list in the OpenStep format (with `//` and `/* */`
    /// comments, as Xcode writes them). Throws ``ParseError`` for anything else, including
    /// text after the value and nesting past ``maxDepth``.
    public static func parse(_ bytes: [UInt8]) throws(ParseError) -> OpenStepPlist {
        var parser = OpenStepParser(bytes: bytes)
        let value = try parser.value(depth: 0)
        try parser.skipSpace()
        guard parser.position == bytes.count else { throw parser.error("text after the property list") }
        return value
    }
}

/// The recursive-descent reader behind ``OpenStepPlist/parse(_:)``.
private struct OpenStepParser {
    let bytes: [UInt8]
    var position = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    func error(_ reason: String) -> OpenStepPlist.ParseError {
        let line = 1 + bytes[..<min(position, bytes.count)].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
        return OpenStepPlist.ParseError(line: line, reason: reason)
    }

    var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    /// Skips white space and comments; an unterminated block comment is an error.
    mutating func skipSpace() throws(OpenStepPlist.ParseError) {
        while let byte = current {
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
                position += 1
            } else if byte == UInt8(ascii: "/"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "/") {
                while let next = current, next != 0x0A { position += 1 }
            } else if byte == UInt8(ascii: "/"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "*") {
                position += 2
                while position + 1 < bytes.count,
                    !(bytes[position] == UInt8(ascii: "*") && bytes[position + 1] == UInt8(ascii: "/"))
                {
                    position += 1
                }
                guard position + 1 < bytes.count else { throw error("a comment is not closed") }
                position += 2
            } else {
                return
            }
        }
    }

    mutating func expect(_ byte: UInt8) throws(OpenStepPlist.ParseError) {
        try skipSpace()
        guard current == byte else {
            throw error("expected '\(Character(Unicode.Scalar(byte)))'\(current == nil ? " before the end" : "")")
        }
        position += 1
    }

    mutating func value(depth: Int) throws(OpenStepPlist.ParseError) -> OpenStepPlist {
        guard depth < OpenStepPlist.maxDepth else { throw error("nested deeper than \(OpenStepPlist.maxDepth)") }
        try skipSpace()
        switch current {
        case nil: throw error("expected a value before the end")
        case UInt8(ascii: "{"):
            position += 1
            var entries: [String: OpenStepPlist] = [:]
            while true {
                try skipSpace()
                if current == UInt8(ascii: "}") {
                    position += 1
                    return .dictionary(entries)
                }
                let key = try string()
                try expect(UInt8(ascii: "="))
                entries[key] = try value(depth: depth + 1)
                try expect(UInt8(ascii: ";"))
            }
        case UInt8(ascii: "("):
            position += 1
            var elements: [OpenStepPlist] = []
            while true {
                try skipSpace()
                if current == UInt8(ascii: ")") {
                    position += 1
                    return .array(elements)
                }
                elements.append(try value(depth: depth + 1))
                try skipSpace()
                if current == UInt8(ascii: ",") {
                    position += 1
                } else if current != UInt8(ascii: ")") {
                    throw error("expected ',' or ')' in an array")
                }
            }
        default:
            return .string(try string())
        }
    }

    /// A quoted string with its escapes, or a bare one of the characters Xcode leaves unquoted.
    mutating func string() throws(OpenStepPlist.ParseError) -> String {
        try skipSpace()
        guard let first = current else { throw error("expected a string before the end") }
        if first == UInt8(ascii: "\"") {
            position += 1
            var scalars: [UInt8] = []
            while true {
                guard let byte = current else { throw error("a string is not closed") }
                position += 1
                if byte == UInt8(ascii: "\"") { break }
                guard byte == UInt8(ascii: "\\") else {
                    scalars.append(byte)
                    continue
                }
                guard let escaped = current else { throw error("a string is not closed") }
                position += 1
                switch escaped {
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "U"):
                    guard position + 4 <= bytes.count,
                        let code = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16),
                        let scalar = Unicode.Scalar(code)
                    else { throw error("\\U needs four hexadecimal digits of a character") }
                    position += 4
                    scalars += Array(String(Character(scalar)).utf8)
                default: scalars.append(escaped)
                }
            }
            guard let text = String(validating: scalars, as: UTF8.self) else { throw error("a string is not UTF-8") }
            return text
        }
        let start = position
        while let byte = current, OpenStepText.isBare(byte) { position += 1 }
        guard position > start else {
            throw error("unexpected '\(Character(Unicode.Scalar(first)))'")
        }
        return String(decoding: bytes[start..<position], as: UTF8.self)
    }
}

/// Writing strings as Xcode writes them in a project file.
enum OpenStepText {
    /// Whether `byte` may appear in a string read unquoted (Xcode writes fewer, see
    /// ``isWrittenBare(_:)``; other writers leave `-` bare too).
    static func isBare(_ byte: UInt8) -> Bool { isWrittenBare(byte) || byte == UInt8(ascii: "-") }

    /// Whether Xcode leaves `byte` unquoted: letters, digits, `_`, `$`, `/`, `:` and `.`.
    static func isWrittenBare(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "/"),
            UInt8(ascii: ":"), UInt8(ascii: "."):
            return true
        default:
            return false
        }
    }

    /// `value` bare when Xcode would leave every character so, else in quotes with `"`, `\`
    /// and control characters escaped.
    static func quoted(_ value: String) -> String {
        if !value.isEmpty, value.utf8.allSatisfy(isWrittenBare), !value.contains("//") { return value }
        var out = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 {
                    out +=
                        "\\U" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                        + String(scalar.value, radix: 16)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}
