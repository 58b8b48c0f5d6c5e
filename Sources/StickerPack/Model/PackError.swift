import AnimationCodec
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Why a pack or one of its stickers could not be read.
public enum PackError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Nothing exists at the path.
    case notFound(path: String)
    /// The path exists but is neither an image, a folder of images nor a sticker catalog.
    case notAPack(path: String, reason: String)
    /// A `Contents.json` is missing, is not JSON, or lacks a required field.
    case invalidContents(path: String, reason: String)
    /// A file named by the catalog does not exist.
    case missingFile(path: String)
    /// A file could not be read.
    case unreadable(path: String)
    /// A file is larger than the loader reads (`DecodingLimits.maxFileBytes`).
    case fileTooLarge(path: String, bytes: Int, limit: Int)
    /// The image itself is bad.
    case codec(path: String, CodecError)
    /// A sticker sequence has no frames.
    case emptySequence(path: String)
    /// An Xcode project's `project.pbxproj` is missing or cannot be read as one.
    case invalidProject(path: String, reason: String)
    /// A file read again (to decode its frames anew) no longer has the frames it had.
    case changedWhileRead(path: String)
    /// A file's name is not UTF-8, so it cannot be named to open it (`path` shows the bytes
    /// that are not as U+FFFD).
    case nameNotUTF8(path: String)
    /// The frames a fit would decode take more bytes than fit decodes for one sticker
    /// (`FitOptions.maxDecodedBytes`, a cap of its own that no decoding limit raises).
    case tooManyFittedFrameBytes(path: String, bytes: Int, limit: Int)

    /// Whether `url`, found by listing its folder, names no file because its name is not UTF-8:
    /// the listing shows such bytes as U+FFFD, and that name then finds nothing, not even a
    /// dangling link.
    public static func nameIsNotUTF8(_ url: URL) -> Bool {
        guard url.lastPathComponent.unicodeScalars.contains("\u{FFFD}") else { return false }
        var status = stat()
        return lstat(url.path, &status) != 0
    }

    /// " (NAME is there: ...)" when a file beside `path` differs from its name only in letter
    /// case, the likely reason it is missing.
    static func caseTwinNote(of path: String) -> String? {
        caseTwin(of: path).map {
            " (\($0) is there: the names differ only in letter case, which this file system tells apart; rename one to match)"
        }
    }

    /// The name of a file beside `path` that differs from its name only in letter case, if any.
    static func caseTwin(of path: String) -> String? {
        let url = URL(fileURLWithPath: path)
        let name = url.lastPathComponent.lowercased()
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)) ?? []
        return entries.first { $0.lowercased() == name && $0 != url.lastPathComponent }
    }

    /// One line naming the file and the problem.
    public var description: String {
        switch self {
        case .notFound(let path): return "\(path): no such file or folder"
        case .notAPack(let path, let reason): return "\(path): not a sticker pack (\(reason))"
        case .invalidContents(let path, let reason): return "\(path): invalid Contents.json (\(reason))"
        case .missingFile(let path):
            if let kind = BoundedFile.notRegularFile(path) {
                // A link is there, to nothing or round in a loop (in a catalog or a folder).
                return "\(path): is \(kind)"
            }
            return "\(path): file named by the catalog is missing" + (Self.caseTwinNote(of: path) ?? "")
        case .unreadable(let path): return "\(path): cannot be read"
        case .fileTooLarge(let path, let bytes, let limit):
            return "\(path): \(bytes) bytes, more than the \(limit) bytes StickerKit reads for a sticker (--max-file)"
        case .codec(let path, let error): return "\(path): \(error)"
        case .emptySequence(let path): return "\(path): sticker sequence has no frames"
        case .invalidProject(let path, let reason): return "\(path): not an Xcode project (\(reason))"
        case .changedWhileRead(let path): return "\(path): changed while it was being read"
        case .tooManyFittedFrameBytes(let path, let bytes, let limit):
            return
                "\(path): the frames fitted would take at least \(bytes) bytes decoded, more than the \(limit) fit decodes for a sticker (whatever --max-decoded says; --max-duration fits fewer)"
        case .nameNotUTF8(let path):
            return
                "\(path): the file's name is not UTF-8 (shown with \u{FFFD}), so it cannot be opened; rename it (Xcode and the App Store take UTF-8 names)"
        }
    }
}
