import FoundationEssentials
import StickerPack
import StickerRenderer

#if canImport(Glibc)
    import Glibc
#endif

/// A folder written all-or-nothing: files go to a hidden staging folder beside the
/// destination (inside it, for an output moved in entry by entry into a folder that exists) and
/// are moved into it by ``commit()``; ``discard()`` removes the staging, and so does an
/// interrupt (``InterruptCleanup``).
struct OutputFolder {
    let final: URL
    let staging: URL
    /// The folders above the staging folder that did not exist and were made for it, deepest
    /// first: ``discard()`` removes them again (when still empty), so an output never written
    /// leaves no folders behind.
    private let madeParents: [URL]

    /// Stages `path`'s output. With `movedInByEntry` (the output is committed by
    /// ``commit(removing:)`` or ``commitEntries()``, never replaced whole), an existing
    /// destination holds its own staging folder: its entries are then renamed within one
    /// folder, so a destination that is a mount point of its own, or whose parent cannot be
    /// written, takes them.
    init(final path: String, movedInByEntry: Bool = false) throws {
        // An empty path would be the current folder, and its files would be replaced.
        guard !path.isEmpty else { throw CLIError(OutputFolder.emptyPathMessage) }
        final = URL(fileURLWithPath: path).standardizedFileURL
        let parent = final.deletingLastPathComponent()
        var isDirectory = false
        if FileManager.default.fileExists(atPath: final.path, isDirectory: &isDirectory), !isDirectory {
            throw CLIError("\(path): exists and is not a folder")
        }
        let stagedInside = movedInByEntry && isDirectory
        staging = AtomicFile.hiddenSibling(
            of: stagedInside ? final.appendingPathComponent(final.lastPathComponent) : final, suffix: "partial")
        var missing: [URL] = []
        var folder = parent
        while !FileManager.default.fileExists(atPath: folder.path), folder.path != "/", missing.count < 256 {
            missing.append(folder)
            folder = folder.deletingLastPathComponent()
        }
        madeParents = missing
        Self.removeStaleStaging(beside: staging)
        InterruptCleanup.register(staging.path)
        do {
            try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        } catch {
            InterruptCleanup.unregister(staging.path)
            for folder in missing { rmdir(folder.path) }
            throw CLIError(
                "\(path): cannot create the folder it is staged in, \(staging.path) (\(errorReason(error))): the output is written "
                    + (stagedInside ? "inside it," : "beside itself, in \(parent.path),") + " then renamed into place")
        }
    }

    /// Removes the staging folders of this output that earlier runs left when they were killed
    /// outright (SIGKILL, a power cut): those named as `staging` is but for a process number no
    /// process has now. A staging folder holds only a new output never committed, so nothing
    /// of the user's is in it.
    private static func removeStaleStaging(beside staging: URL) {
        let name = staging.lastPathComponent
        guard let dash = name.lastIndex(of: "-") else { return }
        let prefix = name[...dash]
        let folder = staging.deletingLastPathComponent()
        for sibling in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        where sibling.hasPrefix(prefix) && sibling != name {
            guard let pid = pid_t(sibling.dropFirst(prefix.count)), pid > 0,
                kill(pid, 0) != 0, errno == ESRCH
            else { continue }
            try? FileManager.default.removeItem(at: folder.appendingPathComponent(sibling))
        }
    }

    /// What an empty output path is told: it names no folder (it would be the current one).
    static let emptyPathMessage =
        "The output folder is an empty path (an unset variable?), which would be the current folder; name the folder to write."

    /// Whether any of `paths` is the destination or lies inside it (symbolic links resolved),
    /// or with `entries` (the names ``commitEntries()`` replaces) inside one of those entries:
    /// a commit would then replace an input, and whatever of it was not written again is lost.
    func holdsAny(of paths: [String], entries: [String]? = nil) -> Bool {
        let roots = entries.map { $0.map { final.appendingPathComponent($0).path } } ?? [final.path]
        return paths.contains { path in roots.contains { Self.path(path, liesWithin: $0) } }
    }

    /// Whether `inner` is `outer` or lies inside it, symbolic links and `.` or `..` resolved;
    /// false when either does not exist.
    static func path(_ inner: String, liesWithin outer: String) -> Bool {
        guard let inner = resolvedPath(inner), let outer = resolvedPath(outer) else { return false }
        return inner == outer || inner.hasPrefix(outer.hasSuffix("/") ? outer : outer + "/")
    }

    /// Refuses an existing folder at `path` that a commit replacing it as a whole must not
    /// replace: one holding what `isEarlierOutput` (given its entries) does not take for an
    /// earlier output of the command (a user's files would go with it; entries `isIgnored`
    /// names, the Finder's `.DS_Store` by default, do not count, hidden files such as a `.git`
    /// do), one that cannot be listed, and the current folder or one holding it (the shell would
    /// be left in a removed folder). `refusal` words the first case, given the entries.
    static func checkReplaceable(
        _ path: String, isIgnored: (String) -> Bool = { $0 == ".DS_Store" }, isEarlierOutput: ([String]) -> Bool,
        refusal: ([String]) -> String
    ) throws {
        let manager = FileManager.default
        var isDirectory = false
        guard manager.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory else { return }
        guard let contents = try? manager.contentsOfDirectory(atPath: path) else {
            throw CLIError("\(path): cannot be listed, so it is not replaced; name a new or empty folder")
        }
        let entries = contents.filter { !isIgnored($0) }.sorted()
        if !entries.isEmpty && !isEarlierOutput(entries) { throw CLIError("\(path): \(refusal(entries))") }
        if Self.path(manager.currentDirectoryPath, liesWithin: path) {
            throw CLIError("\(path): is the current folder or holds it, so it is not replaced; name another folder")
        }
    }

    /// Paths for a message: all of three or fewer, else the first three "and N more".
    static func listing(_ paths: [String]) -> String {
        paths.prefix(3).joined(separator: ", ") + (paths.count > 3 ? " and \(paths.count - 3) more" : "")
    }

    func write(_ bytes: [UInt8], named name: String) throws {
        let url = staging.appendingPathComponent(name)
        // Data over the array's own storage: a frame can be hundreds of megabytes, never copied.
        let written = bytes.withUnsafeBytes { raw in
            let data = raw.baseAddress.map {
                Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: $0), count: raw.count, deallocator: .none)
            }
            return FileManager.default.createFile(atPath: url.path, contents: data ?? Data())
        }
        guard written else {
            throw CLIError("\(url.path): cannot be written")
        }
    }

    /// Moves the staged files into place: a rename when the folder is new, else as
    /// ``commitEntries()`` moves them, so the destination holds all the old files or all the
    /// new ones. A folder where a staged file goes is not replaced: nothing is moved, and the
    /// error names it. The destination's other files whose names `isStale` accepts (an earlier
    /// run's outputs that this run did not write again) are then removed; its other files are
    /// left alone.
    func commit(removing isStale: (String) -> Bool = { _ in false }) throws {
        try InterruptCleanup.deferringInterrupts {
            let manager = FileManager.default
            let names = try manager.contentsOfDirectory(atPath: staging.path)
            for name in names.sorted() {
                // The entry itself, a link not followed: a link is replaced, never what it points to.
                let target = final.appendingPathComponent(name)
                var status = stat()
                if lstat(target.path, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
                    throw CLIError("\(target.path): is a folder, not replaced; nothing was written")
                }
            }
            try moveEntries()
            let written = Set(names)
            for name in try manager.contentsOfDirectory(atPath: final.path)
            where !written.contains(name) && isStale(name) {
                var isDirectory = false
                let stale = final.appendingPathComponent(name)
                guard manager.fileExists(atPath: stale.path, isDirectory: &isDirectory), !isDirectory
                else { continue }
                try manager.removeItem(at: stale)
            }
        }
    }

    /// Moves each staged entry into the destination in place of the one of its name, leaving
    /// the destination's other entries alone: the old entries are renamed aside first, and put
    /// back if any move fails, so the destination holds either all the old entries or all the
    /// new ones.
    func commitEntries() throws {
        try InterruptCleanup.deferringInterrupts { try moveEntries() }
    }

    private func moveEntries() throws {
        let manager = FileManager.default
        guard manager.fileExists(atPath: final.path) else {
            try manager.moveItem(at: staging, to: final)
            InterruptCleanup.unregister(staging.path)
            return
        }
        // Beside the staged entries: within the destination when they are staged there.
        let aside = AtomicFile.hiddenSibling(
            of: staging.deletingLastPathComponent().appendingPathComponent(final.lastPathComponent), suffix: "replaced")
        try manager.createDirectory(at: aside, withIntermediateDirectories: true)
        let names = try manager.contentsOfDirectory(atPath: staging.path)
        var movedAside: [String] = []
        var movedIn: [String] = []
        do {
            for name in names where manager.fileExists(atPath: final.appendingPathComponent(name).path) {
                try manager.moveItem(at: final.appendingPathComponent(name), to: aside.appendingPathComponent(name))
                movedAside.append(name)
            }
            for name in names {
                try manager.moveItem(at: staging.appendingPathComponent(name), to: final.appendingPathComponent(name))
                movedIn.append(name)
            }
        } catch {
            for name in movedIn {
                try? manager.moveItem(at: final.appendingPathComponent(name), to: staging.appendingPathComponent(name))
            }
            for name in movedAside {
                try? manager.moveItem(at: aside.appendingPathComponent(name), to: final.appendingPathComponent(name))
            }
            try? manager.removeItem(at: aside)
            throw error
        }
        Self.removeEarlierCopy(aside)
        try? manager.removeItem(at: staging)
        InterruptCleanup.unregister(staging.path)
    }

    /// Puts the staged folder in place of the destination as a whole: a rename when it is new,
    /// else the old folder is renamed aside, the new one renamed in and the old one removed,
    /// so at every moment the destination is either the old folder or the new one, complete.
    func commitReplacing() throws {
        try InterruptCleanup.deferringInterrupts { try replaceWhole() }
    }

    private func replaceWhole() throws {
        let manager = FileManager.default
        guard manager.fileExists(atPath: final.path) else {
            try manager.moveItem(at: staging, to: final)
            InterruptCleanup.unregister(staging.path)
            return
        }
        let aside = AtomicFile.hiddenSibling(of: final, suffix: "replaced")
        try manager.moveItem(at: final, to: aside)
        do {
            try manager.moveItem(at: staging, to: final)
        } catch {
            try? manager.moveItem(at: aside, to: final)
            throw error
        }
        InterruptCleanup.unregister(staging.path)
        Self.removeEarlierCopy(aside)
    }

    /// Removes the earlier output renamed aside by a commit; one that cannot be removed (a
    /// read-only folder inside it) is named on stderr rather than left hidden without a word.
    private static func removeEarlierCopy(_ aside: URL) {
        do {
            try FileManager.default.removeItem(at: aside)
        } catch {
            TerminalOutput.errorLine(
                "warning: the earlier output, renamed to \(aside.path), could not be removed (\(errorReason(error))); remove it by hand"
            )
        }
    }

    func discard() {
        try? FileManager.default.removeItem(at: staging)
        InterruptCleanup.unregister(staging.path)
        // rmdir removes only an empty folder: one something else has written into stays.
        for folder in madeParents { rmdir(folder.path) }
    }
}
