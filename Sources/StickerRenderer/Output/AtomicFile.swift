import FoundationEssentials
import StickerPack

#if canImport(Glibc)
    import Glibc
#endif

/// Writes files all-or-nothing: bytes go to a hidden temporary file beside the target, which
/// is renamed over it only when complete, so a failure, an interrupt or a crash of the process
/// leaves any earlier file untouched.
///
/// By default the bytes are not forced to the disk before the rename (no `fsync`), as image
/// tools do not (ImageMagick, ffmpeg, cp): the file is whole for every reader, but a power cut
/// or a kernel crash in the next seconds may lose it. Ask for `durable` where that matters, at
/// the cost of waiting for the disk.
public enum AtomicFile {
    /// Why a file could not be written.
    public struct WriteError: Error, CustomStringConvertible {
        /// `path: reason`.
        public var description: String
    }

    /// The hidden file beside `path` that ``write(_:to:)`` fills before renaming it into place
    /// (a caller that handles interrupts removes it on the way out).
    public static func temporaryPath(for path: String) -> String {
        hiddenSibling(of: URL(fileURLWithPath: path), suffix: "tmp").path
    }

    /// `.NAME.SUFFIX-PID` beside `url`, NAME cut to ``CatalogWriter/longestFolderName`` bytes,
    /// so a name near the file system's 255-byte limit still has a sibling (the cut name only
    /// has to be this process's own).
    public static func hiddenSibling(of url: URL, suffix: String) -> URL {
        let name = url.lastPathComponent.prefix(utf8Bytes: CatalogWriter.longestFolderName)
        return url.deletingLastPathComponent().appendingPathComponent(".\(name).\(suffix)-\(getpid())")
    }

    /// Writes `bytes` to `path` atomically; with `durable`, they reach the disk (`fsync`)
    /// before the file takes its name.
    public static func write(_ bytes: [UInt8], to path: String, durable: Bool = false) throws(WriteError) {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent()
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) else {
            throw WriteError(description: "\(path): folder \(folder.path) does not exist")
        }
        guard isDirectory else {
            throw WriteError(description: "\(path): \(folder.path) is a file, not a folder")
        }
        let temporary = URL(fileURLWithPath: temporaryPath(for: path))
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else {
            throw WriteError(description: "\(path): cannot be written (\(String(cString: strerror(errno))))")
        }
        var failure: String?
        if !FileDescriptorOutput.write(bytes, to: fd) { failure = String(cString: strerror(errno)) }
        if failure == nil && durable && fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
        close(fd)
        if failure == nil && rename(temporary.path, url.path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary.path)
            throw WriteError(description: "\(path): cannot be written (\(failure))")
        }
    }
}
