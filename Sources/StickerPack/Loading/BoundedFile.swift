import AnimationCodec
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Reads whole files with a size bound, through POSIX calls: a hostile pack can hold a
/// "Contents.json" or an image of any size, and nothing past the bound is ever allocated.
public enum BoundedFile {
    /// The bytes of `path`, or an error when it is missing, unreadable or over `maxBytes`.
    public static func read(_ path: String, maxBytes: Int) throws(PackError) -> [UInt8] {
        let fd = openRegularFile(path)
        // Not there, or a link to nothing or round in a loop: missing (its message says which).
        guard fd >= 0 else { throw fd == -ENOENT || fd == -ELOOP ? .missingFile(path: path) : .unreadable(path: path) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { throw .unreadable(path: path) }
        let declared = Int(status.st_size)
        guard declared <= maxBytes else { throw .fileTooLarge(path: path, bytes: declared, limit: maxBytes) }
        // Read up to one byte past the bound, in case the file grew since fstat.
        var bytes = [UInt8](repeating: 0, count: min(maxBytes, declared) + 1)
        guard let count = fill(&bytes, from: fd) else { throw .unreadable(path: path) }
        guard count <= maxBytes else { throw .fileTooLarge(path: path, bytes: count, limit: maxBytes) }
        bytes.removeSubrange(count...)
        return bytes
    }

    /// Up to the first `count` bytes of `path` (fewer for a short file, none when it cannot be
    /// read): enough to sniff a format.
    public static func head(_ path: String, count: Int) -> [UInt8] {
        let fd = openRegularFile(path)
        guard fd >= 0 else { return [] }
        defer { close(fd) }
        // The file's own size bounds the buffer: a large `count` costs nothing on a small file.
        var status = stat()
        let size = fstat(fd, &status) == 0 ? Int(status.st_size) : 0
        var bytes = [UInt8](repeating: 0, count: max(0, min(count, size)))
        let filled = fill(&bytes, from: fd) ?? 0
        return Array(bytes.prefix(filled))
    }

    /// Why the regular file at `path` cannot be opened for reading (`Permission denied`), or
    /// `nil` when it can (or is not a regular file there: ``notRegularFile(_:)`` words that).
    public static func openFailure(_ path: String) -> String? {
        let fd = openRegularFile(path)
        guard fd < 0 else {
            close(fd)
            return nil
        }
        // Not a regular file (-EINVAL) or not there: named otherwise.
        return fd == -EINVAL || fd == -ENOENT ? nil : String(cString: strerror(-fd))
    }

    /// `path` opened for reading when it is a regular file, else minus the reason (`-ENOENT`
    /// when it is missing). Opened without blocking, so a FIFO with no writer or a device is
    /// refused instead of waited on; the descriptor is blocking again once it is known to be a file.
    private static func openRegularFile(_ path: String) -> Int32 {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return -errno }
        var status = stat()
        guard fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            return -EINVAL
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
        return fd
    }

    /// The format `path` holds, sniffed from its first `ImageFormat.sniffLength` bytes
    /// (`head`, when the caller has read them), or from up to
    /// `ImageFormat.lottieSniffLength` when those may be the start of a Lottie document whose
    /// top-level keys come later; `nil` when it holds none the codec reads.
    public static func sniffedFormat(_ path: String, head: [UInt8]? = nil) -> ImageFormat? {
        let head = head ?? Self.head(path, count: ImageFormat.sniffLength)
        if let format = ImageFormat.sniff(head) { return format }
        guard ImageFormat.mayBeLottie(head) else { return nil }
        return ImageFormat.sniff(Self.head(path, count: ImageFormat.lottieSniffLength))
    }

    /// Reads from `fd` into `bytes` until it is full or the file ends, retrying interrupts;
    /// the count read, or `nil` on a read error.
    private static func fill(_ bytes: inout [UInt8], from fd: Int32) -> Int? {
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                return nil
            }
            count += n
        }
        return count
    }

    /// The size of the regular file at `path` in bytes, or `nil` when there is none.
    /// What `path` is when something is there but no regular file to read (a link to nothing,
    /// a link round in a loop, a FIFO, a device, a socket, a folder), as a phrase: "a FIFO
    /// (named pipe)"; nil for a regular file, or for nothing at all.
    public static func notRegularFile(_ path: String) -> String? {
        var status = stat()
        guard stat(path, &status) == 0 else {
            let loops = errno == ELOOP
            var link = stat()
            guard lstat(path, &link) == 0 else { return nil }
            return loops ? "a link that leads round in a loop" : "a link to a file that does not exist"
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return nil
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFCHR, S_IFBLK: return "a device"
        case S_IFSOCK: return "a socket"
        case S_IFDIR: return "a folder"
        default: return "not a regular file"
        }
    }

    /// The size of the regular file at `path`; nil for anything else.
    public static func size(_ path: String) -> Int? {
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int(status.st_size)
    }
}
