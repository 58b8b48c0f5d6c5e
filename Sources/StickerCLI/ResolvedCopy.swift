import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// A copy of a folder with its symbolic links followed: each link becomes a copy of the file
/// or folder it points to, so the copy stands alone when moved to another machine (a relative
/// link would point nowhere from the copy's place, an absolute one to a file the Mac lacks).
enum ResolvedCopy {
    /// Copies `source` (a folder) to `destination`, following every link. A link that points to
    /// a folder holding it (which would copy forever), one that points nowhere, and anything
    /// but files and folders (a pipe, a socket, a device) are errors naming the entry.
    static func copy(_ source: URL, to destination: URL) throws {
        try copyFolder(source.path, to: destination.path, holding: [])
    }

    /// Copies the folder at `path`, whose resolved ancestors (and itself, once added) are
    /// `holding`, the chain of folders a link must not lead back into.
    private static func copyFolder(_ path: String, to destination: String, holding: Set<String>) throws {
        guard let resolved = OutputFolder.resolved(path) else {
            throw CLIError("\(path): points nowhere")
        }
        guard !holding.contains(resolved) else {
            throw CLIError("\(path): links to a folder that holds it, so a copy would never end")
        }
        let holding = holding.union([resolved])
        try FileManager.default.createDirectory(atPath: destination, withIntermediateDirectories: false)
        for name in try FileManager.default.contentsOfDirectory(atPath: path).sorted() {
            let entry = path + "/" + name
            let target = destination + "/" + name
            var status = stat()
            // stat follows links: the copy takes what the entry shows.
            guard stat(entry, &status) == 0 else {
                throw CLIError("\(entry): points nowhere (\(String(cString: strerror(errno))))")
            }
            switch status.st_mode & S_IFMT {
            case S_IFDIR:
                try copyFolder(entry, to: target, holding: holding)
            case S_IFREG:
                try FileManager.default.copyItem(
                    atPath: OutputFolder.resolved(entry) ?? entry, toPath: target)
            default:
                throw CLIError("\(entry): is neither a file nor a folder")
            }
        }
    }
}
