import FoundationEssentials

/// The `Info.plist` keys of one target as the build makes them: the file `INFOPLIST_FILE`
/// names, over the keys `GENERATE_INFOPLIST_FILE` makes from the build settings, with every
/// `$(SETTING)` expanded.
struct InfoPlist {
    /// The top-level values that are strings (expanded), and `NSExtension`'s.
    var strings: [String: String] = [:]
    /// `NSExtension`'s string values.
    var extensionKeys: [String: String] = [:]

    /// An `Info.plist` is a few kilobytes; past this it is not one.
    static let maxBytes = 1 << 20

    /// Why a target's Info.plist could not be read: the file (relative to the project) and
    /// the reason.
    struct Failure: Error {
        var file: String
        var reason: String
    }

    /// The keys of `target` in `project`.
    init(target: XcodeProject.Target, project: XcodeProject) throws(Failure) {
        let generated = target.settings["GENERATE_INFOPLIST_FILE"] == "YES"
        if generated {
            strings["CFBundleIdentifier"] = "$(PRODUCT_BUNDLE_IDENTIFIER)"
            strings["CFBundleShortVersionString"] = "$(MARKETING_VERSION)"
            strings["CFBundleVersion"] = "$(CURRENT_PROJECT_VERSION)"
            strings["CFBundleName"] = "$(PRODUCT_NAME)"
            for (key, value) in target.settings where key.hasPrefix("INFOPLIST_KEY_") {
                strings[String(key.dropFirst("INFOPLIST_KEY_".count))] = value
            }
        }
        if let file = target.settings["INFOPLIST_FILE"].map(target.expand), !file.isEmpty {
            let url = file.hasPrefix("/") ? URL(fileURLWithPath: file) : project.folder.appendingPathComponent(file)
            let bytes: [UInt8]
            do {
                bytes = try BoundedFile.read(url.path, maxBytes: Self.maxBytes)
            } catch .fileTooLarge(_, let size, let limit) {
                throw Failure(file: file, reason: "\(size) bytes; an Info.plist is at most \(limit)")
            } catch {
                throw Failure(file: file, reason: "the Info.plist INFOPLIST_FILE names is missing or unreadable")
            }
            guard Self.isShallowXML(bytes) else {
                throw Failure(file: file, reason: "not an XML property list (or nested deeper than \(Self.maxDepth))")
            }
            let root: [String: PlistNode]
            do {
                root = try PropertyListDecoder().decode([String: PlistNode].self, from: Data(bytes))
            } catch {
                throw Failure(file: file, reason: "not a property list dictionary")
            }
            for (key, value) in root {
                if case .string(let text) = value { strings[key] = text }
                if key == "NSExtension", case .dictionary(let entries) = value {
                    for (name, entry) in entries {
                        if case .string(let text) = entry { extensionKeys[name] = target.expand(text) }
                    }
                }
            }
        } else if !generated {
            throw Failure(
                file: project.file.path.dropPrefix(project.folder.path + "/"),
                reason: "target \(target.name) has no Info.plist (neither INFOPLIST_FILE nor GENERATE_INFOPLIST_FILE)")
        }
        for key in Self.keysRead { strings[key] = strings[key].map(target.expand) }
    }

    /// The keys the checks read (the others are left as written).
    static let keysRead = [
        "CFBundleIdentifier", "CFBundleShortVersionString", "CFBundleVersion", "CFBundleDisplayName", "CFBundleName"
    ]

    /// The deepest nesting of `<array>` and `<dict>` read; Info.plists nest three or four.
    static let maxDepth = 32

    /// Whether `bytes` are an XML property list nested at most ``maxDepth`` deep (Foundation's
    /// reader recurses, and a binary list can refer to itself, so only XML is read).
    static func isShallowXML(_ bytes: [UInt8]) -> Bool {
        let text = bytes.drop {
            $0 == 0xEF || $0 == 0xBB || $0 == 0xBF || $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09
        }
        guard
            text.starts(with: Array("<?xml".utf8)) || text.starts(with: Array("<plist".utf8))
                || text.starts(with: Array("<!DOCTYPE".utf8))
        else { return false }
        var depth = 0
        var index = text.startIndex
        while let open = text[index...].firstIndex(of: UInt8(ascii: "<")) {
            let rest = text[(open + 1)...]
            if rest.starts(with: Array("array>".utf8)) || rest.starts(with: Array("dict>".utf8)) {
                depth += 1
                if depth > maxDepth { return false }
            } else if rest.starts(with: Array("/array>".utf8)) || rest.starts(with: Array("/dict>".utf8)) {
                depth -= 1
            }
            index = open + 1
        }
        return true
    }
}

/// Any value of a property list, for reading one whose shape is not known in advance.
enum PlistNode: Decodable {
    case string(String)
    case number(Double)
    case bool(Bool)
    case array([PlistNode])
    case dictionary([String: PlistNode])
    case other

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode([String: PlistNode].self) {
            self = .dictionary(value)
        } else if let value = try? container.decode([PlistNode].self) {
            self = .array(value)
        } else {
            self = .other
        }
    }
}

extension String {
    /// The string without `prefix` when it starts with it.
    func dropPrefix(_ prefix: String) -> String { hasPrefix(prefix) ? String(dropFirst(prefix.count)) : self }
}
