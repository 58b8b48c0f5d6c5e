import CDeflate
import CZlib

#if canImport(Glibc)
    import Glibc
#endif

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

    /// How an image is written.
    public struct Options: Sendable, Hashable {
        /// Write RGB (colour type 2) when every pixel is opaque: a quarter less data.
        public var dropsOpaqueAlpha: Bool
        /// Compression level: 1 is distance-1 matches only (`ScanlineDeflater`, fastest on flat
        /// images), 2-12 libdeflate's levels (6 is the default, 12 the smallest).
        public var compressionLevel: Int32

        /// Creates options.
        public init(dropsOpaqueAlpha: Bool = false, compressionLevel: Int32 = 6) {
            self.dropsOpaqueAlpha = dropsOpaqueAlpha
            self.compressionLevel = compressionLevel
        }

        /// Always RGBA, level 6: the frame dumps' contract.
        public static let standard = Options()
        /// RGB when opaque, level 1: large snapshots written fast.
        public static let fast = Options(dropsOpaqueAlpha: true, compressionLevel: 1)
    }

    /// Encodes one image.
    /// - Precondition: `pixels.count == width * height * 4`.
    public static func encode(premultiplied pixels: [UInt8], width: Int, height: Int, options: Options = .standard)
        -> [UInt8]
    {
        precondition(pixels.count == width * height * 4, "pixel buffer does not match the size")
        let rgb = options.dropsOpaqueAlpha && isOpaque(pixels)
        let data =
            options.compressionLevel <= 1
            ? ScanlineDeflater.compress(pixels, width: width, height: height, rgb: rgb)
            : compressedRows(pixels, width: width, height: height, rgb: rgb, level: options.compressionLevel)
        return file(width: width, height: height, rgb: rgb, data: data)
    }

    /// Encodes an image that `drawRow` draws a row at a time, fast (as ``Options/fast``), without
    /// ever holding it whole: a large snapshot composed on the fly goes straight to the file.
    ///
    /// `drawRow(y, target)` writes row `y` as `width * 4` premultiplied RGBA8 bytes at `target`.
    /// It is called from several threads at once, in any order, and possibly more than once for
    /// a row, so it must depend on `y` alone. With `opaque` (the caller knows every pixel is
    /// opaque, say a snapshot on an opaque background) the PNG is RGB and alpha is not read, else RGBA.
    /// `repeatsRowAbove(y)`, when given, may answer `true` for a row `y > 0` known to equal row
    /// `y - 1` without drawing it (plain background between stickers): that row is not drawn.
    /// It must never answer `true` for a row that differs; `false` is always safe.
    public static func encodeFast(
        width: Int, height: Int, opaque: Bool,
        repeatsRowAbove: (@Sendable (_ y: Int) -> Bool)? = nil,
        drawRow: @escaping @Sendable (_ y: Int, _ target: UnsafeMutablePointer<UInt8>) -> Void
    ) -> [UInt8] {
        precondition(width > 0 && height > 0, "an image needs pixels")
        let data = ScanlineDeflater.compress(width: width, height: height, rgb: opaque, repeatsAbove: repeatsRowAbove) {
            y, scratch in
            drawRow(y, scratch)
            return UnsafePointer(scratch)
        }
        return file(width: width, height: height, rgb: opaque, data: data)
    }

    /// Signature, IHDR, one IDAT of `data`, IEND.
    private static func file(width: Int, height: Int, rgb: Bool, data: [UInt8]) -> [UInt8] {
        var out = PNGSignature.bytes
        appendChunk("IHDR", header(width: width, height: height, colorType: rgb ? 2 : 6), to: &out)
        appendChunk("IDAT", data, to: &out)
        appendChunk("IEND", [], to: &out)
        return out
    }

    private static func isOpaque(_ pixels: [UInt8]) -> Bool {
        pixels.withUnsafeBytes { raw in
            let words = raw.bindMemory(to: UInt32.self)
            // Little-endian RGBA: alpha is the top byte of each word.
            var all: UInt32 = 0xFF00_0000
            for word in words { all &= word }
            return all & 0xFF00_0000 == 0xFF00_0000
        }
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

    static func header(width: Int, height: Int, colorType: UInt8 = 6, bitDepth: UInt8 = 8) -> [UInt8] {
        bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [bitDepth, colorType, 0, 0, 0]
    }

    /// Straightens alpha (dropping it for `rgb`), prefixes each row with its filter byte and
    /// deflates. A row equal to the one above is filtered Up (all zeros); every other row is
    /// filtered Sub. Level 1 takes `ScanlineDeflater`'s fast path; higher levels libdeflate.
    static func compressedRows(_ pixels: [UInt8], width: Int, height: Int, rgb: Bool = false, level: Int32 = 6)
        -> [UInt8]
    {
        if level <= 1 { return ScanlineDeflater.compress(pixels, width: width, height: height, rgb: rgb) }
        let layout = Scanlines(width: width, rgb: rgb)
        let stride = layout.rawRowBytes
        let rowBytes = width * 4
        let raw = [UInt8](unsafeUninitializedCapacity: height * stride) { buffer, count in
            pixels.withUnsafeBufferPointer { source in
                for y in 0..<height {
                    // Safe: row y of `buffer` is stride bytes at y * stride, inside its height * stride;
                    // source rows y - 1 and y lie inside width * height * 4 bytes.
                    let target = buffer.baseAddress! + y &* stride
                    let row = source.baseAddress! + y &* rowBytes
                    if y > 0 && layout.repeats(row, above: row - rowBytes) {
                        target[0] = 2
                        memset(target + 1, 0, stride &- 1)
                    } else {
                        layout.writeSubRow(row, to: target)
                    }
                }
            }
            count = height * stride
        }
        return zlib(raw, level: level)
    }

    /// A zlib stream of `data` at libdeflate `level` (1-12).
    static func zlib(_ data: [UInt8], level: Int32) -> [UInt8] {
        CompressorPool.shared.withCompressor(level: level) { compressor in
            let bound = libdeflate_zlib_compress_bound(compressor, data.count)
            // Compressed into a buffer of the bound, then copied into one of its own size: a
            // plan keeps every frame's stream, and the bound is the frame's size again.
            let stream = UnsafeMutableRawBufferPointer.allocate(byteCount: bound, alignment: 16)
            defer { stream.deallocate() }
            let count = data.withUnsafeBytes {
                libdeflate_zlib_compress(compressor, $0.baseAddress, $0.count, stream.baseAddress, bound)
            }
            return [UInt8](UnsafeRawBufferPointer(rebasing: stream[..<count]))
        }
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
        let crc = body.withUnsafeBytes { libdeflate_crc32(0, $0.baseAddress, $0.count) }
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
