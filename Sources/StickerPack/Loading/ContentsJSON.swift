import FoundationEssentials

/// A parsed `Contents.json` of an asset-catalog folder, read leniently: Apple's own samples
/// misspell keys, so known misspellings are accepted and reported.
struct ContentsJSON {
    let path: String
    let root: [String: Any]

    /// Reads `folder/Contents.json`.
    init(folder: URL) throws(PackError) {
        let url = folder.appendingPathComponent("Contents.json")
        path = url.path
        guard FileManager.default.fileExists(atPath: path) else {
            throw .invalidContents(path: path, reason: "file is missing")
        }
        let bytes: [UInt8]
        do {
            bytes = try BoundedFile.read(path, maxBytes: ContentsJSON.maxBytes)
        } catch .fileTooLarge(_, let size, _) {
            throw .invalidContents(
                path: path, reason: "\(size) bytes; a Contents.json is at most \(ContentsJSON.maxBytes)")
        }
        let object: Any?
        do {
            object = try JSONValue.parse(bytes).untyped
        } catch {
            throw .invalidContents(path: path, reason: "not JSON")
        }
        guard let dictionary = object as? [String: Any] else {
            throw .invalidContents(path: path, reason: "the top level is not an object")
        }
        root = dictionary
    }

    /// Contents.json files Xcode writes are a few kilobytes; anything past this is not one.
    static let maxBytes = 4 << 20

    /// What `stickers fit` recorded of its loss under `info` (``FitLoss/contentsKey``), if anything.
    var fitLoss: FitLoss? {
        (root["info"] as? [String: Any])?[FitLoss.contentsKey].flatMap(FitLoss.init(contentsValue:))
    }

    /// The `properties` object (empty when absent).
    var properties: [String: Any] { root["properties"] as? [String: Any] ?? [:] }

    /// `properties[key]`, or `properties[misspelling]` with a warning.
    func property(_ key: String, misspelledAs misspellings: [String] = [], warnings: inout [PackWarning]) -> Any? {
        if let value = properties[key] { return value }
        for typo in misspellings {
            if let value = properties[typo] {
                warnings.append(
                    PackWarning(
                        path: path, message: "\"\(typo)\" read as \"\(key)\" (a misspelling found in Apple's samples)"))
                return value
            }
        }
        return nil
    }

    /// A string property.
    func string(_ key: String, misspelledAs misspellings: [String] = [], warnings: inout [PackWarning])
        throws(PackError) -> String?
    {
        guard let value = property(key, misspelledAs: misspellings, warnings: &warnings) else { return nil }
        guard let string = value as? String else {
            throw .invalidContents(path: path, reason: "\"\(key)\" is not a string")
        }
        return string
    }

    /// A number property; a numeric string is accepted too.
    func number(_ key: String, misspelledAs misspellings: [String] = [], warnings: inout [PackWarning])
        throws(PackError) -> Double?
    {
        guard let value = property(key, misspelledAs: misspellings, warnings: &warnings) else { return nil }
        if let string = value as? String, let number = Double(string) { return number }
        guard let number = value as? Double else {
            throw .invalidContents(path: path, reason: "\"\(key)\" is not a number")
        }
        return number
    }

    /// The `filename` of every object in the top-level array `key`; `nil` when the key is absent.
    func filenames(in key: String) throws(PackError) -> [String]? {
        guard let value = root[key] else { return nil }
        guard let entries = value as? [Any] else {
            throw .invalidContents(path: path, reason: "\"\(key)\" is not an array")
        }
        var names: [String] = []
        for (index, entry) in entries.enumerated() {
            guard let object = entry as? [String: Any], let name = object["filename"] as? String, !name.isEmpty else {
                throw .invalidContents(path: path, reason: "\"\(key)\"[\(index)] has no \"filename\"")
            }
            guard !name.contains("/"), name != "..", name != "." else {
                throw .invalidContents(
                    path: path, reason: "\"\(key)\"[\(index)] filename \"\(name)\" leaves its folder")
            }
            names.append(name)
        }
        return names
    }
}
