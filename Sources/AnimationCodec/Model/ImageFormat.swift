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
    /// A WebM video (VP8 or VP9, with or without an alpha stream): Telegram's video stickers.
    /// Messages does not take it: `stickers fit` converts it.
    case webm
    /// A Lottie vector animation: Telegram's `.tgs` (gzipped JSON) or a Bodymovin `.json`.
    /// Messages does not take it: `stickers fit` renders it.
    case lottie

    /// How many leading bytes ``sniff(_:)`` needs to recognise every format (Lottie JSON's
    /// top-level keys, inside a gzip member for `.tgs`).
    public static let sniffLength = 4096

    /// How far into a JSON object (or the JSON in a gzip member) ``sniff(_:)`` reads for
    /// Lottie's top-level keys when it is given that many bytes: a writer that sorts keys puts
    /// `assets` and `layers`, which can be large, before `fr`, `ip`, `op`, `w` and `h`.
    public static let lottieSniffLength = 16 << 20

    /// The lowercase name used in CLI output and JSON.
    public var description: String { rawValue }

    /// Recognises the container from its signature, ignoring any file name: magic numbers,
    /// EBML with DocType `webm`, and for Lottie a JSON object (or a gzip member holding one)
    /// whose top-level keys are Lottie's. Give it ``sniffLength`` bytes to recognise every
    /// format; Lottie whose keys come later is recognised from up to ``lottieSniffLength``.
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
        if riff.count == 12, riff[0..<4].elementsEqual("RIFF".utf8), riff[8..<12].elementsEqual("WEBP".utf8) {
            return .webp
        }
        let start = Array(bytes.prefix(sniffLength))
        if isWebM(start) { return .webm }
        guard opensLottieCandidate(start) else { return nil }
        let json = bytes.count > sniffLength ? Array(bytes.prefix(lottieSniffLength)) : start
        if json.starts(with: Gunzip.signature) {
            return LottieJSON.looksLikeLottie(Gunzip.head(json, count: lottieSniffLength)) ? .lottie : nil
        }
        return LottieJSON.looksLikeLottie(json) ? .lottie : nil
    }

    /// Whether `head`, a file's first ``sniffLength`` bytes that ``sniff(_:)`` did not
    /// recognise, may still be Lottie recognised from more of the file: a JSON object, or a
    /// gzip member, whose top-level keys did not all fit in it.
    public static func mayBeLottie(_ head: [UInt8]) -> Bool {
        head.count >= sniffLength && opensLottieCandidate(head)
    }

    /// Whether `head` opens a gzip member or a JSON object: what a Lottie document starts as.
    private static func opensLottieCandidate(_ head: [UInt8]) -> Bool {
        head.starts(with: Gunzip.signature) || head.first(where: { !LottieJSON.isSpace($0) }) == UInt8(ascii: "{")
    }

    /// An EBML header whose DocType is `webm`.
    private static func isWebM(_ bytes: [UInt8]) -> Bool {
        guard bytes.starts(with: [0x1A, 0x45, 0xDF, 0xA3]) else { return false }
        let reader = EBMLReader(bytes: bytes)
        guard let header = try? reader.element(at: 0, end: bytes.count), !header.hasUnknownSize,
            let children = try? reader.children(of: header)
        else { return false }
        return children.contains { $0.id == MatroskaID.docType && reader.string($0) == "webm" }
    }

    /// Whether Messages accepts stickers in this format (PNG, APNG, GIF, JPEG; not WebP, WebM
    /// or Lottie, which `stickers fit` converts).
    public var isMessagesFormat: Bool {
        switch self {
        case .png, .apng, .gif, .jpeg: return true
        case .webp, .webm, .lottie: return false
        }
    }

    /// Whether the format is drawn from vectors at any size (Lottie) rather than stored pixels.
    public var isVector: Bool { self == .lottie }

    /// Whether players show the format's frames for their stored times: a video's (WebM) and
    /// a Lottie file's, which no image decoder reads, so neither Messages' nor browsers' rules
    /// for short image delays apply to them.
    public var isTimedAsStored: Bool { self == .webm || self == .lottie }
}

/// The eight bytes every PNG starts with.
enum PNGSignature {
    static let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
}
