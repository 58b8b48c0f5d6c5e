import CPNG
import Foundation

/// libpng (Debian's, no APNG patch) as an independent decoder of static PNG streams, via its
/// simplified API. Used only by tests, as the oracle for our own PNG path.
enum LibPNGOracle {
    struct Image {
        var width: Int
        var height: Int
        /// Straight RGBA8.
        var rgba: [UInt8]
    }

    /// Decodes `bytes` to straight RGBA8. The simplified API treats 16-bit data as linear and
    /// applies gAMA, so use it only on 8-bit images without colour chunks.
    static func decode(_ bytes: [UInt8]) -> Image? {
        var image = png_image()
        image.version = UInt32(PNG_IMAGE_VERSION)
        let ok = bytes.withUnsafeBytes { png_image_begin_read_from_memory(&image, $0.baseAddress, $0.count) }
        guard ok != 0 else { return nil }
        image.format = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)
        let width = Int(image.width)
        let height = Int(image.height)
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        let finished = rgba.withUnsafeMutableBytes { png_image_finish_read(&image, nil, $0.baseAddress, 0, nil) }
        png_image_free(&image)
        return finished != 0 ? Image(width: width, height: height, rgba: rgba) : nil
    }

    static func decode(contentsOf url: URL) -> Image? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return decode([UInt8](data))
    }
}
