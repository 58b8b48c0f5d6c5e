/// The PNG colour types, as stored in IHDR.
enum PNGColorType: UInt8, Sendable {
    case grayscale = 0
    case rgb = 2
    case indexed = 3
    case grayscaleAlpha = 4
    case rgba = 6

    /// Samples per pixel.
    var channels: Int {
        switch self {
        case .grayscale, .indexed: return 1
        case .grayscaleAlpha: return 2
        case .rgb: return 3
        case .rgba: return 4
        }
    }

    /// The bit depths the spec allows for this colour type.
    var allowedBitDepths: Set<Int> {
        switch self {
        case .grayscale: return [1, 2, 4, 8, 16]
        case .indexed: return [1, 2, 4, 8]
        case .rgb, .grayscaleAlpha, .rgba: return [8, 16]
        }
    }

    var name: String {
        switch self {
        case .grayscale: return "grayscale"
        case .rgb: return "rgb"
        case .indexed: return "indexed"
        case .grayscaleAlpha: return "grayscale-alpha"
        case .rgba: return "rgba"
        }
    }
}

/// The image header (IHDR), validated.
///
/// ```
/// 0  width              (4 bytes)
/// 4  height             (4 bytes)
/// 8  bit depth          (1 byte)
/// 9  colour type        (1 byte)
/// 10 compression method (1 byte, 0)
/// 11 filter method      (1 byte, 0)
/// 12 interlace method   (1 byte, 0 or 1 = Adam7)
/// ```
struct PNGHeader: Sendable, Hashable {
    var width: Int
    var height: Int
    var bitDepth: Int
    var colorType: PNGColorType
    var isInterlaced: Bool

    /// Bits per pixel.
    var bitsPerPixel: Int { bitDepth * colorType.channels }
    /// Bytes between a pixel and the one it is filtered against (at least 1).
    var filterDistance: Int { max(1, bitsPerPixel / 8) }

    /// Bytes in one unfiltered row of `width` pixels (no filter byte).
    func rowBytes(width: Int) -> Int { (width * bitsPerPixel + 7) / 8 }

    init(chunk: Range<Int>, in bytes: [UInt8]) throws(CodecError) {
        guard chunk.count == 13 else {
            throw .malformed(format: .png, reason: "IHDR is \(chunk.count) bytes, not 13")
        }
        let o = chunk.lowerBound
        let width = Int(bytes.bigEndianUInt32(at: o))
        let height = Int(bytes.bigEndianUInt32(at: o + 4))
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw .malformed(format: .png, reason: "image size \(width)x\(height) is invalid")
        }
        guard let colorType = PNGColorType(rawValue: bytes[o + 9]) else {
            throw .malformed(format: .png, reason: "colour type \(bytes[o + 9]) does not exist")
        }
        let bitDepth = Int(bytes[o + 8])
        guard colorType.allowedBitDepths.contains(bitDepth) else {
            throw .malformed(
                format: .png, reason: "bit depth \(bitDepth) is not allowed for colour type \(colorType.rawValue)")
        }
        guard bytes[o + 10] == 0 else {
            throw .malformed(format: .png, reason: "unknown compression method \(bytes[o + 10])")
        }
        guard bytes[o + 11] == 0 else {
            throw .malformed(format: .png, reason: "unknown filter method \(bytes[o + 11])")
        }
        guard bytes[o + 12] <= 1 else {
            throw .malformed(format: .png, reason: "unknown interlace method \(bytes[o + 12])")
        }
        self.width = width
        self.height = height
        self.bitDepth = bitDepth
        self.colorType = colorType
        self.isInterlaced = bytes[o + 12] == 1
    }
}
