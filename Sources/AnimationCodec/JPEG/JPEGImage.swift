import CJPEG

/// A static JPEG sticker, decoded by libjpeg-turbo into opaque RGBA8 and turned upright by its
/// EXIF orientation, as browsers show it.
struct JPEGImage: Sendable {
    /// The width shown (the stored height when the orientation turns it a quarter).
    var width: Int
    /// The height shown.
    var height: Int
    var components: Int
    var isProgressive: Bool
    /// How the stored pixels are turned to be shown.
    var orientation: ExifOrientation

    /// Reads the header and checks the size against `limits` before anything is decoded.
    init(header bytes: [UInt8], limits: DecodingLimits) throws(CodecError) {
        var header = sticker_jpeg_header()
        var message = [CChar](repeating: 0, count: 256)
        let status = bytes.withUnsafeBufferPointer {
            sticker_jpeg_read_header($0.baseAddress, $0.count, &header, &message, message.count)
        }
        guard status == 0 else { throw .jpeg(message: Self.string(message)) }
        orientation = ExifOrientation.of(jpeg: bytes)
        let (stored, other) = (Int(header.width), Int(header.height))
        (width, height) = orientation.swapsSides ? (other, stored) : (stored, other)
        components = Int(header.components)
        isProgressive = header.is_progressive != 0
        guard width > 0, height > 0 else { throw .jpeg(message: "image is \(width)x\(height)") }
        try limits.checkCanvas(width: width, height: height)
    }

    /// The stored width and height, as libjpeg decodes them.
    private var storedSize: (width: Int, height: Int) { orientation.swapsSides ? (height, width) : (width, height) }

    /// Decodes the whole image.
    func decode(_ bytes: [UInt8]) throws(CodecError) -> FrameLayer {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        var message = [CChar](repeating: 0, count: 256)
        var repaired = sticker_jpeg_warning()
        let status = bytes.withUnsafeBufferPointer { source in
            pixels.withUnsafeMutableBufferPointer { target in
                sticker_jpeg_decode_rgba(
                    source.baseAddress, source.count, target.baseAddress, target.count, &message, message.count,
                    &repaired)
            }
        }
        guard status == 0 else { throw .jpeg(message: Self.string(message)) }
        let stored = storedSize
        pixels = orientation.apply(to: pixels, width: stored.width, height: stored.height).pixels
        var layer = FrameLayer(rect: FrameRect(x: 0, y: 0, width: width, height: height), pixels: pixels)
        if repaired.count > 0 { layer.warnings = [Self.warning(repaired)] }
        return layer
    }

    /// What libjpeg worked around, as a warning: the data ending early (the rest filled in), or
    /// corrupt data it recovered from (libjpeg's message, such as `Corrupt JPEG data: ...`).
    private static func warning(_ repaired: sticker_jpeg_warning) -> CodecWarning {
        let text = withUnsafeBytes(of: repaired.message) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        let more = repaired.count > 1 ? ", and \(counted(Int(repaired.count) - 1, "more libjpeg warning"))" : ""
        return repaired.truncated != 0
            ? CodecWarning(.truncated, "JPEG data ends early; the rest of the image is filled in\(more)")
            : CodecWarning(.other, "\(text)\(more)")
    }

    private static func string(_ message: [CChar]) -> String {
        String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
