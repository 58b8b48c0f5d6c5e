import CJPEG

#if canImport(Glibc)
    import Glibc
#endif

/// Writes opaque images as baseline JPEG through libjpeg-turbo.
public enum JPEGEncoder {
    /// Encodes `pixels` (premultiplied RGBA8, every pixel opaque, so the colour is as it is)
    /// at `quality` 1-100. Returns `nil` if libjpeg fails (it only fails on resource errors).
    public static func encode(opaque pixels: [UInt8], width: Int, height: Int, quality: Int) -> [UInt8]? {
        precondition(pixels.count == width * height * 4, "pixel buffer does not match the size")
        var buffer: UnsafeMutablePointer<UInt8>?
        var length = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = pixels.withUnsafeBufferPointer { source in
            sticker_jpeg_encode_rgbx(
                source.baseAddress, UInt32(width), UInt32(height), Int32(max(1, min(100, quality))),
                &buffer, &length, &message, message.count)
        }
        defer { free(buffer) }
        guard status == 0, let buffer else { return nil }
        return Array(UnsafeBufferPointer(start: buffer, count: length))
    }
}
