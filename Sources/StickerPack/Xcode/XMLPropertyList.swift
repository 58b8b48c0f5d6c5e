/// A property list written as Xcode writes an `Info.plist`: XML, tabs, dictionary keys in
/// sorted order (so the bytes depend only on the values).
public indirect enum XMLPropertyList: Sendable, Hashable {
    /// `<string>`.
    case string(String)
    /// `<true/>` or `<false/>`.
    case bool(Bool)
    /// `<integer>`.
    case integer(Int)
    /// `<array>`.
    case array([XMLPropertyList])
    /// `<dict>`, written with its keys sorted.
    case dictionary([String: XMLPropertyList])

    /// The whole file: the XML declaration, Apple's DOCTYPE and the value in `<plist>`.
    public var document: String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">

            """
        write(into: &out, indent: 0)
        return out + "</plist>\n"
    }

    private func write(into out: inout String, indent: Int) {
        let tabs = String(repeating: "\t", count: indent)
        switch self {
        case .string(let value): out += "\(tabs)<string>\(Self.escaped(value))</string>\n"
        case .bool(let value): out += "\(tabs)<\(value ? "true" : "false")/>\n"
        case .integer(let value): out += "\(tabs)<integer>\(value)</integer>\n"
        case .array(let values):
            guard !values.isEmpty else {
                out += "\(tabs)<array/>\n"
                return
            }
            out += "\(tabs)<array>\n"
            for value in values { value.write(into: &out, indent: indent + 1) }
            out += "\(tabs)</array>\n"
        case .dictionary(let entries):
            guard !entries.isEmpty else {
                out += "\(tabs)<dict/>\n"
                return
            }
            out += "\(tabs)<dict>\n"
            for key in entries.keys.sorted() {
                out += "\(tabs)\t<key>\(Self.escaped(key))</key>\n"
                entries[key]!.write(into: &out, indent: indent + 1)
            }
            out += "\(tabs)</dict>\n"
        }
    }

    /// `&`, `<` and `>` as entities.
    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(character)
            }
        }
        return out
    }
}
