import AnimationCodec
import Testing

/// A ``CodecError`` without its message: the case a test expects, and for a chunk checksum
/// mismatch the chunk it names.
enum CodecErrorCase: Hashable {
    case emptyFile, unknownFormat, truncated
    case malformed(ImageFormat)
    case chunkChecksumMismatch(chunk: String)
    case appleCgBI
    case corruptCompressedData, limitExceeded, noImageData, frameIndexOutOfRange, jpeg, missingLibrary

    init(_ error: CodecError) {
        switch error {
        case .emptyFile: self = .emptyFile
        case .unknownFormat: self = .unknownFormat
        case .truncated: self = .truncated
        case .malformed(let format, _): self = .malformed(format)
        case .chunkChecksumMismatch(let chunk, _, _): self = .chunkChecksumMismatch(chunk: chunk)
        case .appleCgBI: self = .appleCgBI
        case .corruptCompressedData: self = .corruptCompressedData
        case .limitExceeded: self = .limitExceeded
        case .noImageData: self = .noImageData
        case .frameIndexOutOfRange: self = .frameIndexOutOfRange
        case .jpeg: self = .jpeg
        case .missingLibrary: self = .missingLibrary
        }
    }
}

/// How far a decode of (possibly damaged) bytes got: the structure or the error reading it,
/// the kinds of warning the structure raised, and how many frames decoded before the error
/// that stopped them, if any.
struct DecodeOutcome: Equatable, CustomStringConvertible {
    /// The error reading the structure; nothing else is set when there is one.
    var structureError: CodecErrorCase?
    var frameCount = 0
    var warnings: Set<CodecWarning.Kind> = []
    var framesDecoded = 0
    /// The error decoding frame `framesDecoded`.
    var frameError: CodecErrorCase?

    static func failed(_ error: CodecErrorCase) -> DecodeOutcome { DecodeOutcome(structureError: error) }

    /// The error the decode ended in, from either stage.
    var error: CodecErrorCase? { structureError ?? frameError }

    var description: String {
        if let structureError { return "error \(structureError)" }
        let stop = frameError.map { ", then \($0)" } ?? ""
        return "\(framesDecoded) of \(frameCount) frames, warnings \(warnings.map(\.rawValue).sorted())\(stop)"
    }

    /// Decodes `bytes` serially, handing each frame to `check` (its pixels are valid only
    /// during the call). Every frame must be a whole canvas of the size the structure declares.
    static func of(_ bytes: [UInt8], check: (Int, Frame) -> Void = { _, _ in }) -> (DecodeOutcome, AnimationInfo?) {
        let decoder: AnimationDecoder
        do {
            decoder = try AnimationDecoder(bytes: bytes)
        } catch {
            return (.failed(CodecErrorCase(error)), nil)
        }
        let info = decoder.info
        var outcome = DecodeOutcome(frameCount: decoder.frameCount, warnings: Set(info.warnings.map(\.kind)))
        var iterator = decoder.makeFrameIterator()
        do {
            while let frame = try iterator.next() {
                #expect(
                    frame.width == info.width && frame.height == info.height
                        && frame.pixels.count == info.width * info.height * 4)
                check(outcome.framesDecoded, frame)
                outcome.framesDecoded += 1
            }
        } catch {
            outcome.frameError = CodecErrorCase(error)
        }
        return (outcome, info)
    }
}
