import FoundationEssentials
import StickerPack

#if canImport(Glibc)
    import Glibc
#endif

/// A copy of a folder with its symbolic links followed: each link becomes a copy of the file
/// or folder it points to, so the copy stands alone when moved to another machine (a relative
/// link would point nowhere from the copy's place, an absolute one to a file the Mac lacks).
enum ResolvedCopy {
    /// Copies `source` (a folder) to `destination`, following every link. A link that points
    /// to a folder holding it or to one of `source`'s own folders (which would copy without
    /// end, or copy the disk), one that leads into `outside` (the folder being written), and
    /// anything but files and folders (a pipe, a socket, a device) are errors naming the
    /// entry; a link that points nowhere is left out with a warning, as Xcode leaves it out.
    /// So are links that fan out: a folder reached a second time, and a copy past
    /// ``maxEntries`` entries or ``maxBytes`` bytes (a few links to links to a folder would
    /// otherwise copy it thousands of times). Only what a catalog can use is copied
    /// (``isCatalogEntry(_:isFolder:)``); anything else, linked or not, is left out with a
    /// warning (hidden files without one), so a link to a folder of secrets is never copied.
    static func copy(_ source: URL, to destination: URL, outside: URL) throws {
        guard let root = resolvedPath(source.path) else {
            throw CLIError("\(source.path): cannot be read")
        }
        // The folders above the source: a link back to any of them would copy them whole.
        var above: Set<String> = []
        var folder = URL(fileURLWithPath: root).deletingLastPathComponent()
        while folder.path != "/" && above.insert(folder.path).inserted { folder.deleteLastPathComponent() }
        above.insert("/")
        let written = resolvedPath(outside.path) ?? outside.path
        var tally = Tally()
        try copyFolder(
            source.path, resolved: root, to: destination.path, holding: above, written: written, tally: &tally)
    }

    /// The folders a sticker catalog is made of, by extension.
    static let catalogFolderTypes: Set<String> = ["stickerpack", "sticker", "stickersequence", "stickersiconset"]

    /// Whether a catalog can use an entry of this name: a `Contents.json`, an image file,
    /// one of ``catalogFolderTypes``. Xcode leaves anything else out of the app.
    static func isCatalogEntry(_ name: String, isFolder: Bool) -> Bool {
        guard !name.hasPrefix(".") else { return false }
        let type = URL(fileURLWithPath: name).pathExtension.lowercased()
        return isFolder
            ? catalogFolderTypes.contains(type) : name == "Contents.json" || PackLoader.imageExtensions.contains(type)
    }

    /// Whether the file at `path` is an image by its bytes (a catalog may name one with no
    /// extension).
    private static func isImage(_ path: String) -> Bool {
        BoundedFile.sniffedFormat(path) != nil
    }

    /// The most entries (files and folders) a copy makes.
    static let maxEntries = 100_000
    /// The most bytes a copy writes (a catalog's stickers are at most 500 KB each).
    static let maxBytes = 4 << 30

    /// What a copy has made so far.
    private struct Tally {
        /// The resolved folders copied, each to the path it was first reached by.
        var folders: [String: String] = [:]
        var entries = 0
        var bytes = 0

        /// Counts one more entry of `bytes`, refusing `path` past the bounds.
        mutating func add(_ path: String, bytes: Int = 0) throws {
            entries += 1
            self.bytes += bytes
            guard entries <= ResolvedCopy.maxEntries, self.bytes <= ResolvedCopy.maxBytes else {
                throw CLIError(
                    "\(path): the copy comes to more than \(ResolvedCopy.maxEntries) entries or \(ResolvedCopy.maxBytes >> 30) GiB (do links lead to one folder many times?)"
                )
            }
        }
    }

    /// Copies the folder at `path` (resolved: `resolved`), whose resolved ancestors are
    /// `holding`, the folders a link must not lead back into.
    private static func copyFolder(
        _ path: String, resolved: String, to destination: String, holding: Set<String>, written: String,
        tally: inout Tally
    ) throws {
        guard !holding.contains(resolved) else {
            throw CLIError("\(path): links to a folder that holds it, so a copy would never end")
        }
        guard !OutputFolder.path(resolved, liesWithin: written) else {
            throw CLIError("\(path): links into \(written), the folder being written")
        }
        if let first = tally.folders[resolved] {
            throw CLIError("\(path): leads to the folder \(first) leads to, which is copied already")
        }
        tally.folders[resolved] = path
        try tally.add(path)
        let holding = holding.union([resolved])
        let names: [String]
        do {
            try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: false)
            names = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
        } catch {
            throw CLIError("\(path): cannot be copied (\(errorReason(error)))")
        }
        for name in names {
            let entry = path + "/" + name
            let target = destination + "/" + name
            var status = stat()
            // stat follows links: the copy takes what the entry shows.
            guard stat(entry, &status) == 0 else {
                if errno == ENOENT || errno == ELOOP {
                    warn("\(entry): a link to nothing, left out of the copy")
                    continue
                }
                throw CLIError("\(entry): cannot be read (\(String(cString: strerror(errno))))")
            }
            guard let real = resolvedPath(entry) else {
                throw CLIError("\(entry): cannot be read")
            }
            let kind = status.st_mode & S_IFMT
            guard
                Self.isCatalogEntry(name, isFolder: kind == S_IFDIR) || (kind != S_IFDIR && kind != S_IFREG)
                    || (kind == S_IFREG && !name.hasPrefix(".") && Self.isImage(real))
            else {
                if !name.hasPrefix(".") {
                    warn("\(entry): left out of the copy, not a file or folder a sticker catalog uses")
                }
                continue
            }
            switch kind {
            case S_IFDIR:
                try copyFolder(entry, resolved: real, to: target, holding: holding, written: written, tally: &tally)
            case S_IFREG:
                try tally.add(entry, bytes: Int(status.st_size))
                do { try FileManager.default.copyItem(atPath: real, toPath: target) } catch {
                    throw CLIError("\(entry): cannot be copied (\(errorReason(error)))")
                }
            default:
                throw CLIError("\(entry): is neither a file nor a folder")
            }
        }
    }
}
