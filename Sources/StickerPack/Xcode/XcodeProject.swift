import FoundationEssentials

/// An Xcode project as read from its `project.pbxproj`: the object graph, and the parts a
/// sticker pack app is made of (targets, their build phases and settings, file references).
public struct XcodeProject: Sendable {
    /// The folder that holds the `.xcodeproj` (the project's source root).
    public var folder: URL
    /// The `.xcodeproj` bundle.
    public var bundle: URL
    /// Every object by its identifier.
    public var objects: [String: [String: OpenStepPlist]]
    /// The `PBXProject` object's identifier.
    public var rootID: String
    /// Each group child's group.
    private var parents: [String: String] = [:]

    /// A `project.pbxproj` is a few hundred kilobytes at most for a large app; past this it is
    /// not one.
    public static let maxBytes = 16 << 20

    /// Reads the `.xcodeproj` at `bundle`. Throws when its `project.pbxproj` is missing,
    /// too large, not an OpenStep property list or has no root object.
    public init(bundle: URL) throws(PackError) {
        self.bundle = bundle
        folder = bundle.deletingLastPathComponent()
        let file = bundle.appendingPathComponent("project.pbxproj")
        let bytes: [UInt8]
        do {
            bytes = try BoundedFile.read(file.path, maxBytes: Self.maxBytes)
        } catch .fileTooLarge(_, let size, let limit) {
            throw .invalidProject(path: file.path, reason: "\(size) bytes; a project file is at most \(limit)")
        } catch {
            throw .invalidProject(path: file.path, reason: "missing or unreadable")
        }
        let root: OpenStepPlist
        do {
            root = try OpenStepPlist.parse(bytes)
        } catch {
            throw .invalidProject(path: file.path, reason: "not a property list: \(error)")
        }
        guard let objectTable = root["objects"]?.dictionary else {
            throw .invalidProject(path: file.path, reason: "no \"objects\" dictionary")
        }
        var objects: [String: [String: OpenStepPlist]] = [:]
        for (id, value) in objectTable {
            guard let object = value.dictionary else {
                throw .invalidProject(path: file.path, reason: "object \(id) is not a dictionary")
            }
            objects[id] = object
        }
        guard let rootID = root["rootObject"]?.string, objects[rootID]?["isa"]?.string == "PBXProject" else {
            throw .invalidProject(path: file.path, reason: "\"rootObject\" names no PBXProject")
        }
        self.objects = objects
        self.rootID = rootID
        for (groupID, object) in objects
        where object["isa"]?.string == "PBXGroup" || object["isa"]?.string == "PBXVariantGroup" {
            for child in object["children"]?.array?.compactMap(\.string) ?? [] { parents[child] = groupID }
        }
    }

    /// The `project.pbxproj` file.
    public var file: URL { bundle.appendingPathComponent("project.pbxproj") }

    /// The object `id`'s `key` as a string.
    public func string(_ id: String, _ key: String) -> String? { objects[id]?[key]?.string }

    /// The object `id`'s `key` as a list of strings (identifiers).
    public func list(_ id: String, _ key: String) -> [String] {
        objects[id]?[key]?.array?.compactMap(\.string) ?? []
    }

    /// The project's targets, in its order.
    public var targets: [Target] {
        var seen: Set<String> = []
        let ids = list(rootID, "targets").filter { seen.insert($0).inserted }.prefix(Self.maxTargets)
        return ids.compactMap { id in
            guard string(id, "isa") == "PBXNativeTarget" else { return nil }
            return Target(project: self, id: id)
        }
    }

    /// The most targets read; an app with hundreds is not a sticker pack app.
    public static let maxTargets = 64

    /// One native target: its name, product type, phases and build settings.
    public struct Target: Sendable {
        /// The object's identifier.
        public var id: String
        /// The target's name.
        public var name: String
        /// `com.apple.product-type.…`.
        public var productType: String
        /// The product's file reference.
        public var productReference: String?
        /// The build phases' identifiers, in order.
        public var phases: [String]
        /// The targets this one depends on.
        public var dependencies: [String]
        /// The Release configuration's settings over the project's Release settings.
        public var settings: [String: String]

        init(project: XcodeProject, id: String) {
            self.id = id
            name = project.string(id, "name") ?? id
            productType = project.string(id, "productType") ?? ""
            productReference = project.string(id, "productReference")
            phases = project.list(id, "buildPhases")
            dependencies = project.list(id, "dependencies").compactMap { project.string($0, "target") }
            var settings = [
                "SRCROOT": project.folder.path, "PROJECT_DIR": project.folder.path,
                "SOURCE_ROOT": project.folder.path,
                "PROJECT_NAME": project.bundle.deletingPathExtension().lastPathComponent
            ]
            settings.merge(project.releaseSettings(of: project.rootID)) { $1 }
            settings.merge(project.releaseSettings(of: id)) { $1 }
            settings["TARGET_NAME"] = name
            settings["PRODUCT_NAME"] = settings["PRODUCT_NAME"] ?? "$(TARGET_NAME)"
            self.settings = settings
        }

        /// `$(NAME)`, `${NAME}` and `$(NAME:rfc1034identifier)` replaced by the settings, ten
        /// rounds deep, 100 expansions in all and up to 64 KiB (a setting that names itself
        /// stops there); a name no setting has is left as it is written.
        public func expand(_ text: String) -> String {
            var budget = BuildSettingExpansion.steps
            return BuildSettingExpansion.expandFully(text, settings, budget: &budget)
        }
    }

    /// The Release (else the first) build configuration's settings of a target or the project,
    /// over those of its `.xcconfig` file (`baseConfigurationReference`), array values joined
    /// with spaces.
    func releaseSettings(of id: String) -> [String: String] {
        guard let listID = string(id, "buildConfigurationList") else { return [:] }
        let configurations = list(listID, "buildConfigurations")
        let chosen = configurations.first { string($0, "name") == "Release" } ?? configurations.first
        guard let chosen else { return [:] }
        var settings = string(chosen, "baseConfigurationReference").flatMap(location(of:)).map(Self.configFile) ?? [:]
        let own = objects[chosen]?["buildSettings"]?.dictionary ?? [:]
        settings.merge(
            own.compactMapValues { value in
                value.string ?? value.array.map { $0.compactMap(\.string).joined(separator: " ") }
            }
        ) { $1 }
        return settings
    }

    /// The `KEY = VALUE` lines of an `.xcconfig` file (comments, includes and conditional
    /// settings skipped); empty when it cannot be read.
    static func configFile(_ url: URL) -> [String: String] {
        guard let bytes = try? BoundedFile.read(url.path, maxBytes: 1 << 20) else { return [:] }
        var settings: [String: String] = [:]
        for line in String(decoding: bytes, as: UTF8.self).split(whereSeparator: \.isNewline) {
            let text = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false)[0]
            let parts = text.split(separator: "=", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let key = parts[0].trimmingSpaces
            guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { continue }
            settings[key] = parts[1].trimmingSpaces
        }
        return settings
    }

    /// The `.xcstickers` catalogs of the sticker pack extension targets (``catalogs(of:)``),
    /// where they are on disk.
    public var stickerCatalogs: [URL] {
        targets.filter { $0.productType == XcodeProjectValidator.extensionProductType }.flatMap(catalogs(of:))
    }

    /// The `.xcstickers` catalogs `target` copies as resources, where they are on disk: those
    /// in its Copy Bundle Resources phases, and those in the folders Xcode 16 keeps in step
    /// with the disk. A folder a target lists (`fileSystemSynchronizedGroups`) gives it every
    /// file inside but for the paths its exception set for that target names
    /// (`membershipExceptions`); a folder it does not list gives it only those paths.
    public func catalogs(of target: Target) -> [URL] {
        let inPhases = target.phases.filter { string($0, "isa") == "PBXResourcesBuildPhase" }
            .flatMap { list($0, "files") }
            .compactMap { string($0, "fileRef") }
            .filter { (string($0, "path") ?? "").lowercased().hasSuffix(".xcstickers") }
            .compactMap(location(of:))
        let listed = Set(list(target.id, "fileSystemSynchronizedGroups"))
        let groups = objects.keys.sorted().filter { string($0, "isa") == "PBXFileSystemSynchronizedRootGroup" }
        let inFolders = groups.flatMap { group -> [URL] in
            guard let folder = location(of: group) else { return [] }
            let exceptions = list(group, "exceptions").filter {
                string($0, "isa") == "PBXFileSystemSynchronizedBuildFileExceptionSet"
                    && string($0, "target") == target.id
            }.flatMap { list($0, "membershipExceptions") }
            func named(_ catalog: (url: URL, relative: String)) -> Bool {
                exceptions.contains { catalog.relative == $0 || catalog.relative.hasPrefix($0 + "/") }
            }
            guard listed.contains(group) || !exceptions.isEmpty else { return [] }
            return Self.catalogFolders(in: folder).filter { listed.contains(group) != named($0) }.map(\.url)
        }
        // A catalog both listed and in a synchronized folder (or reached through a link) is one.
        var seen: Set<String> = []
        return (inPhases + inFolders).filter {
            seen.insert(resolvedPath($0.path) ?? $0.standardizedFileURL.path).inserted
        }
    }

    /// The `.xcstickers` folders within `folder` with their paths relative to it, by name,
    /// nearest first: a catalog is not searched inside, nor is a folder Xcode takes as one item
    /// (a name with an extension, as `Assets.xcassets` or `Art.bundle`, but `.lproj`), hidden
    /// entries are skipped, and the walk stops eight folders down or after 16,384 entries.
    public static func catalogFolders(in folder: URL) -> [(url: URL, relative: String)] {
        var found: [(url: URL, relative: String)] = []
        var pending: [(url: URL, relative: String, depth: Int)] = [(folder, "", 0)]
        var seen = 0
        var next = 0
        while next < pending.count, seen < 16_384 {
            let (current, relative, depth) = pending[next]
            next += 1
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: current.path)) ?? []).sorted()
            for name in names where !name.hasPrefix(".") && seen < 16_384 {
                seen += 1
                let url = current.appendingPathComponent(name)
                let path = relative.isEmpty ? name : relative + "/" + name
                var isDirectory = false
                guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory else {
                    continue
                }
                let suffix = url.pathExtension.lowercased()
                if suffix == "xcstickers" {
                    found.append((url, path))
                } else if depth < 8, suffix.isEmpty || suffix == "lproj" {
                    pending.append((url, path, depth + 1))
                }
            }
        }
        return found
    }

    /// Where a file reference (or group) points, following its groups up to the main group;
    /// `nil` for a built product or a reference outside the groups.
    public func location(of id: String) -> URL? {
        var components: [String] = []
        var current: String? = id
        var steps = 0
        while let node = current, steps < 64 {
            steps += 1
            let path = string(node, "path")
            switch string(node, "sourceTree") ?? "<group>" {
            case "<group>":
                if let path { components.insert(path, at: 0) }
                current = parents[node]
                if current == nil { return components.reduce(folder) { $0.appendingPathComponent($1) } }
            case "SOURCE_ROOT":
                return components.reduce(folder.appendingPathComponent(path ?? "")) { $0.appendingPathComponent($1) }
            case "<absolute>":
                return components.reduce(URL(fileURLWithPath: path ?? "/")) { $0.appendingPathComponent($1) }
            default:
                return nil
            }
        }
        return nil
    }
}

/// The expansion of `$(NAME)` references in build settings and Info.plist values.
enum BuildSettingExpansion {
    /// The longest expansion made; past it the text is cut (a hostile project could name one
    /// long setting millions of times).
    static let maxBytes = 1 << 16

    /// The expansions one text may take in all, rounds and modifiers' own expansions together.
    static let steps = 100

    /// `text` expanded pass after pass until nothing changes: ten passes at most, each taking
    /// one of `budget`'s steps, and no longer than ``maxBytes``.
    static func expandFully(_ text: String, _ settings: [String: String], budget: inout Int) -> String {
        var result = text
        for _ in 0..<10 where budget > 0 {
            budget -= 1
            let next = expand(result, settings, budget: &budget)
            if next == result || next.utf8.count > maxBytes { break }
            result = next
        }
        return result
    }

    /// One pass over `text`; a value with a modifier is expanded fully before the modifier
    /// applies, as Xcode does (`$(PRODUCT_NAME:rfc1034identifier)` with `PRODUCT_NAME =
    /// $(TARGET_NAME)` is the target's name made an identifier), each such expansion taking one
    /// of `budget`'s steps so settings that name each other stop.
    private static func expand(_ text: String, _ settings: [String: String], budget: inout Int) -> String {
        var out = ""
        var rest = Substring(text)
        while let dollar = rest.firstIndex(of: "$") {
            if out.utf8.count > maxBytes { return out }
            out += rest[..<dollar]
            let afterDollar = rest.index(after: dollar)
            guard afterDollar < rest.endIndex, rest[afterDollar] == "(" || rest[afterDollar] == "{" else {
                out.append("$")
                rest = rest[afterDollar...]
                continue
            }
            let closing: Character = rest[afterDollar] == "(" ? ")" : "}"
            guard let end = rest[afterDollar...].firstIndex(of: closing) else {
                out += rest
                return out
            }
            let inner = rest[rest.index(after: afterDollar)..<end]
            let parts = inner.split(separator: ":", maxSplits: 1)
            // A modifier with no steps left would apply to text not expanded: left as written.
            if let name = parts.first, let value = settings[String(name)], parts.count == 1 || budget > 0 {
                var expanded = value
                if parts.count > 1 {
                    expanded = modified(expandFully(expanded, settings, budget: &budget), String(parts[1]))
                }
                out += expanded.utf8.count > maxBytes ? String(expanded.prefix(maxBytes)) : expanded
            } else {
                out += rest[dollar...end]
            }
            rest = rest[rest.index(after: end)...]
        }
        return out + rest
    }

    /// The value through Xcode's `rfc1034identifier` or `c99extidentifier` modifier.
    static func modified(_ value: String, _ modifier: String) -> String {
        switch modifier {
        case "rfc1034identifier":
            return String(value.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") ? $0 : "-" })
        case "c99extidentifier":
            return String(value.map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "_" })
        default:
            return value
        }
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
