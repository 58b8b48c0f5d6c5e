/// The container formats the codec reads, recognised from a file's first bytes.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// A PNG without an acTL chunk before its image data.
    case png
    /// A PNG with an animation control chunk (APNG).
    case apng
    /// GIF87a or GIF89a.
    case gif
    /// A JFIF/EXIF JPEG stream.
    case jpeg
    /// A RIFF WebP, still or animated (what Telegram, WhatsApp and Signal stickers come as).
    /// Messages does not take it: `stickers fit` reads it to convert it.
    case webp

    /// The lowercase name used in CLI output and JSON.
    public var description: String { rawValue }

    /// Recognises the container from its signature, ignoring any file name.
    ///
    /// PNG and APNG share a signature; this returns ``png`` for both, and the PNG reader
    /// decides whether the file is animated.
    /// - Returns: `nil` when the bytes match no supported signature.
    public static func sniff<Bytes: Collection>(_ bytes: Bytes) -> ImageFormat? where Bytes.Element == UInt8 {
        let head = Array(bytes.prefix(8))
        if head.starts(with: PNGSignature.bytes) { return .png }
        if head.count >= 6, head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8)) {
            return .gif
        }
        if head.count >= 3, head[0] == 0xFF, head[1] == 0xD8, head[2] == 0xFF { return .jpeg }
        let riff = Array(bytes.prefix(12))
        if riff.count == 12, riff[0..<4].elementsEqual("RIFF".utf8), riff[8..<12].elementsEqual("WEBP".utf8) { return .webp }
        return nil
    }

    /// Whether Messages accepts stickers in this format (PNG, APNG, GIF, JPEG; not WebP).
    public var isMessagesFormat: Bool { self != .webp }
}

/// The eight bytes every PNG starts with.
enum PNGSignature {
    static let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
}
