/// The objects of a `project.pbxproj` being written, and their text as Xcode lays it out:
/// one section a class, objects sorted by identifier, `isa` first and the other keys sorted,
/// build files and file references on one line, a comment naming what an identifier is.
struct PBXObjectGraph {
    /// A value of an object's field.
    indirect enum Field {
        /// A string, quoted when it must be.
        case string(String)
        /// An object's identifier, written with the object's comment.
        case reference(String)
        /// A list of strings or references.
        case list([Field])
        /// A nested dictionary (build settings, attributes), keys sorted.
        case dictionary([String: Field])
    }

    /// One object.
    struct Object {
        var id: String
        var isa: String
        /// What the comment after its identifier says (`Name.app`, `Resources`); `nil` for none.
        var comment: String?
        var fields: [String: Field]
    }

    private(set) var objects: [String: Object] = [:]

    /// Adds an object; identifiers are unique by construction (a repeated one is a bug).
    mutating func add(_ object: Object) {
        precondition(objects[object.id] == nil, "two objects share the identifier \(object.id)")
        objects[object.id] = object
    }

    /// The whole file, with `rootID` as the root object.
    func text(objectVersion: String, rootID: String) -> String {
        var out =
            "// !$*UTF8*$!\n{\n\tarchiveVersion = 1;\n\tclasses = {\n\t};\n\tobjectVersion = \(objectVersion);\n\tobjects = {\n"
        let classes = Set(objects.values.map(\.isa)).sorted()
        for isa in classes {
            out += "\n/* Begin \(isa) section */\n"
            for object in objects.values.filter({ $0.isa == isa }).sorted(by: { $0.id < $1.id }) {
                out += "\t\t\(reference(object.id)) = "
                if isa == "PBXBuildFile" || isa == "PBXFileReference" {
                    out += "{" + entries(of: object).map { "\($0.key) = \(line($0.value)); " }.joined() + "};\n"
                } else {
                    out += "{\n"
                    for entry in entries(of: object) { out += block(entry.key, entry.value, indent: 3) }
                    out += "\t\t};\n"
                }
            }
            out += "/* End \(isa) section */\n"
        }
        out += "\t};\n\trootObject = \(reference(rootID));\n}\n"
        return out
    }

    /// `isa` first, then the fields by name.
    private func entries(of object: Object) -> [(key: String, value: Field)] {
        [("isa", .string(object.isa))] + object.fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// `ID /* comment */`.
    private func reference(_ id: String) -> String {
        guard let comment = objects[id]?.comment else { return id }
        return "\(id) /* \(comment) */"
    }

    /// A field on one line.
    private func line(_ field: Field) -> String {
        switch field {
        case .string(let value): return OpenStepText.quoted(value)
        case .reference(let id): return reference(id)
        case .list(let items): return "(" + items.map { line($0) + ", " }.joined() + ")"
        case .dictionary(let entries):
            return "{" + entries.keys.sorted().map { "\(OpenStepText.quoted($0)) = \(line(entries[$0]!)); " }.joined()
                + "}"
        }
    }

    /// `key = value;` over as many lines as its lists and dictionaries need.
    private func block(_ key: String, _ field: Field, indent: Int) -> String {
        let tabs = String(repeating: "\t", count: indent)
        switch field {
        case .string, .reference:
            return "\(tabs)\(OpenStepText.quoted(key)) = \(line(field));\n"
        case .list(let items):
            var out = "\(tabs)\(OpenStepText.quoted(key)) = (\n"
            for item in items { out += "\(tabs)\t\(line(item)),\n" }
            return out + "\(tabs));\n"
        case .dictionary(let entries):
            var out = "\(tabs)\(OpenStepText.quoted(key)) = {\n"
            for name in entries.keys.sorted() { out += block(name, entries[name]!, indent: indent + 1) }
            return out + "\(tabs)};\n"
        }
    }
}

/// Object identifiers derived from names: 24 hexadecimal digits (96 bits) of two FNV-1a
/// hashes of the project's name and the object's role, so the same project gets the same
/// identifiers every time it is written.
enum StableIdentifier {
    /// The identifier of `role` in the project named `project`.
    static func make(project: String, role: String) -> String {
        let bytes = Array("\(project)\u{0}\(role)".utf8)
        let high = fnv1a(bytes, basis: 0xcbf2_9ce4_8422_2325)
        let low = fnv1a(bytes.reversed(), basis: 0x6c62_272e_07bb_0142)
        return hex(high, digits: 16) + hex(low >> 32, digits: 8)
    }

    private static func fnv1a<S: Sequence<UInt8>>(_ bytes: S, basis: UInt64) -> UInt64 {
        var hash = basis
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    private static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
