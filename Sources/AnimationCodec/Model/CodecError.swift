/// Why a file could not be decoded. Every case names the problem and carries the evidence.
public enum CodecError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file has no bytes at all.
    case emptyFile
    /// The bytes match none of the supported signatures.
    case unknownFormat
    /// The file ended before a structure it had started; `context` says which.
    case truncated(context: String)
    /// A structural rule of the format is broken.
    case malformed(format: ImageFormat, reason: String)
    /// A chunk's stored CRC does not match its contents.
    case chunkChecksumMismatch(chunk: String, declared: UInt32, computed: UInt32)
    /// The PNG was rewritten by Xcode's `pngcrush -iphone` (CgBI chunk): byte-swapped,
    /// premultiplied and without zlib headers, so it is not a standard PNG.
    case appleCgBI
    /// Compressed image data could not be inflated.
    case corruptCompressedData(reason: String)
    /// The file declares something larger than the decoder's ``DecodingLimits`` allow.
    case limitExceeded(LimitViolation)
    /// The file holds no image at all.
    case noImageData
    /// A frame index outside `0..<frameCount` was requested.
    case frameIndexOutOfRange(index: Int, frameCount: Int)
    /// libjpeg-turbo refused the stream; `message` is its own.
    case jpeg(message: String)
    /// The library that reads this format is not installed (rlottie, loaded when a Lottie file
    /// is first read); `package` is the Debian package that provides it.
    case missingLibrary(format: ImageFormat, library: String, package: String)

    /// A one-line, human-readable description.
    public var description: String {
        switch self {
        case .emptyFile:
            return "the file is empty (0 bytes)"
        case .unknownFormat:
            return "not a PNG, APNG, GIF, JPEG, WebP, WebM or Lottie file (unrecognised signature)"
        case .truncated(let context):
            return "file is truncated: \(context)"
        case .malformed(let format, let reason):
            return "invalid \(format.rawValue.uppercased()): \(reason)"
        case .chunkChecksumMismatch(let chunk, let declared, let computed):
            return "PNG chunk \(chunk) is corrupt: CRC is \(hex(declared)), contents give \(hex(computed))"
        case .appleCgBI:
            return "Apple CgBI PNG (optimised by Xcode for iOS): not a standard PNG; export the original file"
        case .corruptCompressedData(let reason):
            return "compressed image data is corrupt: \(reason)"
        case .limitExceeded(let violation):
            return violation.description
        case .noImageData:
            return "the file contains no image data"
        case .frameIndexOutOfRange(let index, let frameCount):
            return "frame \(index) requested, but the animation has \(counted(frameCount, "frame"))"
        case .jpeg(let message):
            return "invalid JPEG: \(message)"
        case .missingLibrary(let format, let library, let package):
            return "reading \(format) needs \(library), which is not installed (Debian: apt-get install \(package))"
        }
    }
}

private func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: max(0, 8 - digits.count)) + digits
}
