import TestSupport
import Testing

@testable import AnimationCodec

/// The PNG chunk reader, format sniffing, the decoding limits and the structural errors and
/// fallbacks of hand-built files.
@Suite("Chunk reading, sniffing and limits", .timeLimit(.minutes(3)))
struct StructureTests {
    static func staticPNG(width: Int = 2, height: Int = 2, rgba: [UInt8] = [255, 0, 0, 255]) -> TestPNG {
        var png = TestPNG()
        png.header(width: width, height: height)
        png.chunk("IDAT", TestPNG.zlibStored(TestPNG.solidRows(width: width, height: height, rgba: rgba)))
        png.chunk("IEND", [])
        return png
    }

    @Test("sniffing uses the bytes, not the name")
    func sniffing() {
        #expect(ImageFormat.sniff(Self.staticPNG().bytes) == .png)
        #expect(ImageFormat.sniff(Array("GIF87a".utf8) + [0, 0]) == .gif)
        #expect(ImageFormat.sniff(Array("GIF89a".utf8)) == .gif)
        #expect(ImageFormat.sniff([0xFF, 0xD8, 0xFF, 0xE0]) == .jpeg)
        #expect(ImageFormat.sniff(Array("GIF88a".utf8)) == nil)
        #expect(ImageFormat.sniff([]) == nil)
        #expect(throws: CodecError.unknownFormat) { try AnimationDecoder(bytes: Array("hello".utf8)) }
    }

    @Test("the chunk reader returns each chunk's type, range and CRC verdict")
    func chunkReader() throws {
        var png = Self.staticPNG()
        png.chunk("tEXt", Array("a\u{0}b".utf8), crc: 0xDEAD_BEEF)
        var reader = PNGChunkReader(bytes: png.bytes)
        var seen: [(String, Int, Bool)] = []
        while let chunk = try reader.next() { seen.append((chunk.type, chunk.data.count, chunk.checksumIsValid)) }
        #expect(seen.map(\.0) == ["IHDR", "IDAT", "IEND", "tEXt"])
        #expect(seen[0].1 == 13)
        #expect(seen.map(\.2) == [true, true, true, false])
    }

    @Test("a chunk reaching past the end of the file is a truncation error")
    func chunkPastEnd() {
        var png = TestPNG()
        png.header(width: 1, height: 1)
        png.chunk("IDAT", [1, 2, 3], declaredLength: 1_000)
        // The IDAT chunk starts after the 8-byte signature and IHDR's 25 bytes.
        #expect(throws: CodecError.truncated(context: "chunk IDAT at byte 33 needs 1000 bytes of data and a CRC")) {
            try AnimationDecoder(bytes: png.bytes)
        }
        var reader = PNGChunkReader(bytes: png.bytes)
        _ = try? reader.next()
        #expect {
            _ = try reader.next()
        } throws: { error in
            if case .truncated = error as? CodecError { return true }
            return false
        }
    }

    @Test("a chunk length over 2^31-1 is rejected")
    func hugeLength() {
        var png = TestPNG()
        png.header(width: 1, height: 1)
        png.bytes += [0x80, 0, 0, 0] + Array("IDAT".utf8) + [0, 0, 0, 0]
        #expect {
            _ = try AnimationDecoder(bytes: png.bytes)
        } throws: { error in
            // PNG's lengths stop at 2^31 - 1: 0x80000000 breaks a rule of the format.
            guard case .malformed(.png, let reason) = error as? CodecError else { return false }
            return reason.contains("IDAT") && reason.contains("2147483648")
        }
    }

    @Test("a bad CRC on a critical chunk names the chunk and both values")
    func badCriticalCRC() {
        var png = TestPNG()
        png.header(width: 1, height: 1)
        png.chunk("IDAT", TestPNG.zlibStored([0, 1, 2, 3, 4]), crc: 0x1234_5678)
        png.chunk("IEND", [])
        #expect {
            _ = try AnimationDecoder(bytes: png.bytes)
        } throws: { error in
            guard case .chunkChecksumMismatch(let chunk, let declared, _) = error as? CodecError else { return false }
            return chunk == "IDAT" && declared == 0x1234_5678
        }
    }

    @Test("a CgBI PNG from Xcode is recognised and named")
    func cgbi() {
        var png = TestPNG()
        png.chunk("CgBI", [0x50, 0x00, 0x20, 0x06])
        png.header(width: 1, height: 1)
        #expect(throws: CodecError.appleCgBI) { try AnimationDecoder(bytes: png.bytes) }
    }

    @Test("a 100-byte file declaring a 65535x65535 canvas fails at once with a limit error")
    func hugeCanvas() {
        var png = TestPNG()
        png.header(width: 65535, height: 65535)
        png.chunk("IDAT", TestPNG.zlibStored([0]))
        png.chunk("IEND", [])
        #expect(png.bytes.count < 100)
        #expect {
            _ = try AnimationDecoder(bytes: png.bytes)
        } throws: { error in
            // Both sides are within PNG's own maximum: the area limit (64 Mpx) refuses it.
            if case .limitExceeded(.pixels(4_294_836_225, limit: 64 << 20)) = error as? CodecError { return true }
            return false
        }
        var gif = Array("GIF89a".utf8) + [0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0]
        gif += [0x2C, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0, 2, 0, 0x3B]
        // The 65535 x 65535 screen is refused by area before the frame is read.
        #expect(throws: CodecError.limitExceeded(.pixels(65535 * 65535, limit: 64 << 20))) {
            try AnimationDecoder(bytes: gif)
        }
    }

    @Test("limits raised to Int.max: a canvas whose bytes would overflow an Int is still refused, never a trap")
    func unboundedLimits() {
        let open = DecodingLimits(
            maxSide: .max, maxPixels: .max, maxFrames: .max, maxTotalDecodedBytes: .max, maxFileBytes: .max)
        // PNG's largest sides: (2^31 - 1)^2 pixels, 2^62 - 2^32 + 1, times 4 bytes is past Int.max.
        let side = (1 << 31) - 1
        for frames in [0, 2] {
            var png = TestPNG()
            png.header(width: side, height: side)
            if frames > 0 {
                png.chunk("acTL", TestPNG.be32(frames) + TestPNG.be32(0))
                png.chunk("fcTL", TestPNG.frameControl(sequence: 0, width: side, height: side))
            }
            png.chunk("IDAT", TestPNG.zlibStored([0]))
            png.chunk("IEND", [])
            // Named against the largest canvas any limits allow, Int.max / 4 pixels.
            #expect(throws: CodecError.limitExceeded(.pixels(side * side, limit: .max / 4))) {
                try AnimationDecoder(bytes: png.bytes, limits: open)
            }
        }
    }

    @Test("limits can be lowered and raised by the caller", .needs("gif-peterdn"))
    func adjustableLimits() throws {
        let bytes = Self.staticPNG(width: 64, height: 64).bytes
        var tight = DecodingLimits.default
        tight.maxSide = 32
        #expect(throws: CodecError.limitExceeded(.side(width: 64, height: 64, limit: 32))) {
            try AnimationDecoder(bytes: bytes, limits: tight)
        }
        let decoder = try AnimationDecoder(bytes: bytes)
        #expect(decoder.info.width == 64)
        var fewFrames = DecodingLimits.default
        fewFrames.maxFrames = 3
        // animated_loop.gif: four 100 x 100 frames (Pillow's n_frames and size); the GIF reader
        // counts frames as it meets them, so the fourth is the one over the limit.
        #expect(throws: CodecError.limitExceeded(.frames(4, limit: 3))) {
            try AnimationDecoder(bytes: Fixtures.bytes("gif-peterdn", "animated_loop.gif"), limits: fewFrames)
        }
        var fewBytes = DecodingLimits.default
        fewBytes.maxTotalDecodedBytes = 100 * 100 * 4 * 3
        #expect(throws: CodecError.limitExceeded(.decodedBytes(100 * 100 * 4 * 4, limit: 100 * 100 * 4 * 3))) {
            try AnimationDecoder(bytes: Fixtures.bytes("gif-peterdn", "animated_loop.gif"), limits: fewBytes)
        }
    }

    @Test("an APNG frame rectangle outside the canvas breaks the animation, not the file")
    func fcTLOutsideCanvas() throws {
        var png = TestPNG()
        png.header(width: 4, height: 4)
        png.chunk("acTL", TestPNG.be32(2) + TestPNG.be32(0))
        png.chunk("fcTL", TestPNG.frameControl(sequence: 0, width: 4, height: 4))
        png.chunk("IDAT", TestPNG.zlibStored(TestPNG.solidRows(width: 4, height: 4, rgba: [0, 255, 0, 255])))
        png.chunk("fcTL", TestPNG.frameControl(sequence: 1, width: 4, height: 4, x: 2, y: 0))
        png.chunk(
            "fdAT", TestPNG.be32(2) + TestPNG.zlibStored(TestPNG.solidRows(width: 4, height: 4, rgba: [255, 0, 0, 255]))
        )
        png.chunk("IEND", [])
        let decoder = try AnimationDecoder(bytes: png.bytes)
        #expect(decoder.frameCount == 1)
        #expect(decoder.info.warnings.first?.kind == .animationIgnored)
        #expect(try decoder.frame(at: 0).pixel(x: 3, y: 3) == PremultipliedRGBA(r: 0, g: 255, b: 0, a: 255))
    }

    /// docs/formats.md: a bad CRC on `acTL`, `fcTL` or `fdAT` breaks the animation, which shows
    /// the default image alone with an `animationIgnored` warning; the file is still an APNG.
    @Test(
        "a bad CRC on any APNG chunk breaks the animation: the default image, with a warning",
        arguments: ["acTL", "fcTL", "fdAT"])
    func badAnimationChunkCRC(corrupted: String) throws {
        var png = TestPNG()
        png.header(width: 4, height: 4)
        let crc: (String) -> UInt32? = { $0 == corrupted ? 0x1234_5678 : nil }
        png.chunk("acTL", TestPNG.be32(2) + TestPNG.be32(0), crc: crc("acTL"))
        png.chunk("IDAT", TestPNG.zlibStored(TestPNG.solidRows(width: 4, height: 4, rgba: [0, 255, 0, 255])))
        png.chunk("fcTL", TestPNG.frameControl(sequence: 0, width: 4, height: 4), crc: crc("fcTL"))
        png.chunk(
            "fdAT",
            TestPNG.be32(1) + TestPNG.zlibStored(TestPNG.solidRows(width: 4, height: 4, rgba: [255, 0, 0, 255])),
            crc: crc("fdAT"))
        png.chunk("fcTL", TestPNG.frameControl(sequence: 2, width: 4, height: 4))
        png.chunk(
            "fdAT", TestPNG.be32(3) + TestPNG.zlibStored(TestPNG.solidRows(width: 4, height: 4, rgba: [0, 0, 255, 255]))
        )
        png.chunk("IEND", [])
        let decoder = try AnimationDecoder(bytes: png.bytes)
        #expect(decoder.info.format == .apng)
        #expect(decoder.info.warnings.map(\.kind) == [.animationIgnored])
        #expect(decoder.info.warnings.first?.message.contains("\(corrupted) chunk has a bad CRC") == true)
        #expect(
            try decoder.decodeAllFrames().map { $0.pixel(x: 3, y: 3) } == [
                PremultipliedRGBA(r: 0, g: 255, b: 0, a: 255)
            ])
    }

    @Test("too much and too little image data")
    func imageDataLength() throws {
        var long = TestPNG()
        long.header(width: 2, height: 2)
        long.chunk(
            "IDAT", TestPNG.zlibStored(TestPNG.solidRows(width: 2, height: 2, rgba: [9, 8, 7, 255]) + [0, 0, 0, 0]))
        long.chunk("IEND", [])
        #expect(
            try AnimationDecoder(bytes: long.bytes).frame(at: 0).pixel(x: 1, y: 1)
                == PremultipliedRGBA(r: 9, g: 8, b: 7, a: 255))
        var short = TestPNG()
        short.header(width: 2, height: 2)
        short.chunk(
            "IDAT", TestPNG.zlibStored(Array(TestPNG.solidRows(width: 2, height: 2, rgba: [9, 8, 7, 255]).prefix(10))))
        short.chunk("IEND", [])
        // Two rows of a filter byte and 2 x 4 samples need 18 bytes; the stream holds 10.
        #expect(throws: CodecError.corruptCompressedData(reason: "image data ends after 10 of 18 bytes")) {
            try AnimationDecoder(bytes: short.bytes).frame(at: 0)
        }
    }

    /// A PNG of `rgba` whose zlib stream is `edit`ed first (its last four bytes are the
    /// Adler-32).
    static func pngWithStream(_ edit: (inout [UInt8]) -> Void, rgba: [UInt8] = [9, 8, 7, 255]) -> [UInt8] {
        var stream = TestPNG.zlibStored(TestPNG.solidRows(width: 2, height: 2, rgba: rgba))
        edit(&stream)
        var png = TestPNG()
        png.header(width: 2, height: 2)
        png.chunk("IDAT", stream)
        png.chunk("IEND", [])
        return png.bytes
    }

    @Test("a wrong or missing Adler-32 after complete image data changes nothing, as in Chromium")
    func adlerIgnored() throws {
        // Chromium 156 draws such a file with its pixels (checked by hand: a 4x4 PNG with its
        // Adler-32 flipped, drawn to a canvas and read back); libpng's PNG_IGNORE_ADLER32 and
        // Chromium's decoders skip the check.
        let expected = PremultipliedRGBA(r: 9, g: 8, b: 7, a: 255)
        let flipped = Self.pngWithStream { $0[$0.count - 1] ^= 0xFF }
        let missing = Self.pngWithStream { $0.removeLast(4) }
        for bytes in [flipped, missing] {
            let frame = try AnimationDecoder(bytes: bytes).frame(at: 0)
            #expect(frame.warnings.isEmpty)
            #expect((0..<2).allSatisfy { y in (0..<2).allSatisfy { x in frame.pixel(x: x, y: y) == expected } })
        }
        // The same for an APNG frame's fdAT stream.
        var apng = TestPNG()
        apng.header(width: 2, height: 2)
        apng.chunk("acTL", TestPNG.be32(2) + TestPNG.be32(0))
        apng.chunk("fcTL", TestPNG.frameControl(sequence: 0, width: 2, height: 2))
        apng.chunk("IDAT", TestPNG.zlibStored(TestPNG.solidRows(width: 2, height: 2, rgba: [0, 255, 0, 255])))
        apng.chunk("fcTL", TestPNG.frameControl(sequence: 1, width: 2, height: 2))
        var stream = TestPNG.zlibStored(TestPNG.solidRows(width: 2, height: 2, rgba: [0, 0, 255, 255]))
        stream[stream.count - 2] ^= 0x55
        apng.chunk("fdAT", TestPNG.be32(2) + stream)
        apng.chunk("IEND", [])
        let frames = try AnimationDecoder(bytes: apng.bytes).decodeAllFrames()
        #expect(
            frames.map { $0.pixel(x: 1, y: 1) } == [
                PremultipliedRGBA(r: 0, g: 255, b: 0, a: 255), PremultipliedRGBA(r: 0, g: 0, b: 255, a: 255)
            ])
        #expect(frames.allSatisfy { $0.warnings.isEmpty })
    }

    @Test(
        "a damaged zlib header is an error",
        arguments: [
            [0x78, 0x02],  // FCHECK wrong: 0x7802 is not a multiple of 31
            [0x79, 0x18],  // compression method 9
            [0x88, 0x1C],  // a window of 2^16 bytes, past deflate's 32 KiB
            [0x78, 0xBB]  // a preset dictionary (FDICT), which PNG forbids
        ])
    func damagedZlibHeader(header: [Int]) throws {
        #expect((header[0] * 256 + header[1]) % 31 == 0 || header == [0x78, 0x02])
        let bytes = Self.pngWithStream { $0.replaceSubrange(0..<2, with: header.map { UInt8($0) }) }
        #expect {
            try AnimationDecoder(bytes: bytes).frame(at: 0)
        } throws: { error in
            guard case .corruptCompressedData = error as? CodecError else { return false }
            return true
        }
    }
}
