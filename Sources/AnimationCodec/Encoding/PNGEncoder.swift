import CDeflate
import CZlib

/// Writes premultiplied RGBA8 pixels as a standard PNG (colour type 6, 8 bits, straight
/// alpha), or as an APNG when given several frames.
public enum PNGEncoder {
    /// One frame of an APNG to write: a full canvas and its display time.
    public struct AnimationFrame: Sendable {
        /// `width * height * 4` premultiplied RGBA8 bytes.
        public var pixels: [UInt8]
        /// Display time.
        public var delay: FrameDelay
        /// Creates a frame.
        public init(pixels: [UInt8], delay: FrameDelay) {
            self.pixels = pixels
            self.delay = delay
        }
    }

    /// Encodes one image.
    /// - Precondition: `pixels.count == width * height * 4`.
    public static func encode(premultiplied pixels: [UInt8], width: Int, height: Int) -> [UInt8] {
        precondition(pixels.count == width * height * 4, "pixel buffer does not match the size")
        var out = PNGSignature.bytes
        appendChunk("IHDR", header(width: width, height: height), to: &out)
        appendChunk("IDAT", compressedRows(pixels, width: width, height: height), to: &out)
        appendChunk("IEND", [], to: &out)
        return out
    }

    /// Encodes an animation whose frames each cover the whole canvas (SOURCE blend, NONE
    /// dispose). `plays` is APNG's num_plays, 0 meaning forever.
    public static func encodeAnimation(_ frames: [AnimationFrame], width: Int, height: Int, plays: Int) -> [UInt8] {
        precondition(!frames.isEmpty && frames.allSatisfy { $0.pixels.count == width * height * 4 })
        var writer = APNGWriter(width: width, height: height, frameCount: frames.count, plays: plays)
        for frame in frames {
            writer.append(premultiplied: frame.pixels, x: 0, y: 0, width: width, height: height, delay: frame.delay)
        }
        return writer.finish()
    }

    static func header(width: Int, height: Int) -> [UInt8] {
        bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 6, 0, 0, 0]
    }

    /// Straightens alpha, prefixes each row with filter byte 0 (None) and deflates.
    static func compressedRows(_ pixels: [UInt8], width: Int, height: Int) -> [UInt8] {
        let rowBytes = width * 4
        var raw = [UInt8](repeating: 0, count: height * (rowBytes + 1))
        for y in 0..<height {
            for x in 0..<width {
                let s = (y * width + x) * 4, d = y * (rowBytes + 1) + 1 + x * 4
                let a = pixels[s + 3]
                raw[d + 3] = a
                guard a != 0 else { continue }
                for c in 0..<3 { raw[d + c] = unpremultiply(pixels[s + c], alpha: a) }
            }
        }
        guard let compressor = libdeflate_alloc_compressor(6) else { fatalError("libdeflate could not allocate a compressor") }
        defer { libdeflate_free_compressor(compressor) }
        var out = [UInt8](repeating: 0, count: libdeflate_zlib_compress_bound(compressor, raw.count))
        let size = raw.withUnsafeBytes { source in
            out.withUnsafeMutableBytes { target in
                libdeflate_zlib_compress(compressor, source.baseAddress, source.count, target.baseAddress, target.count)
            }
        }
        out.removeSubrange(size...)
        return out
    }

    /// `round(c * 255 / a)`, clamped: the straight value nearest to a premultiplied one.
    @inlinable
    public static func unpremultiply(_ color: UInt8, alpha: UInt8) -> UInt8 {
        guard alpha != 0 else { return 0 }
        return UInt8(min(255, (UInt32(color) * 255 + UInt32(alpha) / 2) / UInt32(alpha)))
    }

    static func appendChunk(_ type: String, _ data: [UInt8], to out: inout [UInt8]) {
        out += bigEndian(UInt32(data.count))
        let body = Array(type.utf8) + data
        out += body
        let crc = body.withUnsafeBufferPointer { UInt32(crc32(0, $0.baseAddress, UInt32($0.count))) }
        out += bigEndian(crc)
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    static func bigEndian16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
}

/// Writes binary PPM (P6) images.
public enum PPMEncoder {
    /// Encodes premultiplied pixels as P6: premultiplied colour is the image composited
    /// over black, so the channels are written as they are.
    public static func encodeOverBlack(premultiplied pixels: [UInt8], width: Int, height: Int) -> [UInt8] {
        precondition(pixels.count == width * height * 4, "pixel buffer does not match the size")
        var out = Array("P6\n\(width) \(height)\n255\n".utf8)
        out.reserveCapacity(out.count + width * height * 3)
        for p in 0..<(width * height) {
            out.append(pixels[4 * p])
            out.append(pixels[4 * p + 1])
            out.append(pixels[4 * p + 2])
        }
        return out
    }
}
