import FoundationEssentials

/// A JSON value of any shape: how `Contents.json` files are read leniently (as a tree of
/// dictionaries, arrays, strings, numbers and booleans) and how catalogs are written.
enum JSONValue: Codable, Equatable {
    case null
    case bool(Bool)
    /// A number written without a fraction or exponent that fits an `Int`.
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .int(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The value as the loosely typed tree the readers walk: `[String: Any]`, `[Any]`,
    /// `String`, `Double` (every number), `Bool`, or `nil` for JSON null.
    var untyped: Any? {
        switch self {
        case .null: return nil
        case .bool(let value): return value
        case .int(let value): return Double(value)
        case .double(let value): return value
        case .string(let value): return value
        case .array(let values): return values.map { $0.untyped as Any }
        case .object(let members): return members.compactMapValues { $0.untyped }
        }
    }

    /// The JSON for a tree of `[String: Any]`, arrays, strings, integers, doubles and
    /// booleans (what the catalog writer builds); anything else is a programming error.
    init(untyped value: Any) {
        switch value {
        case let value as String: self = .string(value)
        case let value as Bool: self = .bool(value)
        case let value as Int: self = .int(value)
        case let value as Double: self = .double(value)
        case let value as [String: Any]: self = .object(value.mapValues { JSONValue(untyped: $0) })
        case let value as [Any]: self = .array(value.map { JSONValue(untyped: $0) })
        default: preconditionFailure("no JSON for a \(type(of: value))")
        }
    }

    /// `data` parsed as JSON.
    static func parse(_ data: [UInt8]) throws -> JSONValue {
        try JSONDecoder().decode(JSONValue.self, from: Data(data))
    }

    /// Xcode's layout: two-space indents, keys sorted, slashes unescaped, a final newline.
    func xcodeJSON() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }
}
