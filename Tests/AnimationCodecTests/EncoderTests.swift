import AnimationCodec
import Testing

/// The PNG and APNG writers, read back by libpng (an independent decoder) and by hand:
/// standard RGBA, the fast snapshot path (RGB when opaque, Up rows, Sub rows, zlib RLE),
/// and APNG frames that replace sub-rectangles.
@Suite("PNG and APNG writers")
struct EncoderTests {
    /// A test image: flat bands (repeated rows), gradients, and partly transparent pixels.
    static func image(width: Int, height: Int, opaque: Bool) -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let o = (y * width + x) * 4
                let flat = y < height / 3  // identical rows: Up-filtered
                let a: Int = opaque ? 255 : (flat ? 255 : (x * 7 + y * 3) % 256)
                let straight = flat ? [200, 40, 90] : [(x * 5) % 256, (y * 11) % 256, (x ^ y) % 256]
                for c in 0..<3 { pixels[o + c] = UInt8((straight[c] * a + 127) / 255) }
                pixels[o + 3] = UInt8(a)
            }
        }
        return pixels
    }

    /// What libpng must read back: each premultiplied pixel straightened, round(c * 255 / a).
    static func straight(_ premultiplied: [UInt8]) -> [UInt8] {
        var out = premultiplied
        for p in stride(from: 0, to: out.count, by: 4) {
            let a = Int(out[p + 3])
            for c in 0..<3 { out[p + c] = a == 0 ? 0 : UInt8(min(255, (Int(premultiplied[p + c]) * 255 + a / 2) / a)) }
        }
        return out
    }

    @Test(
        "Standard and fast PNGs decode in libpng to the straightened pixels", arguments: [true, false],
        [PNGEncoder.Options.standard, .fast])
    func roundTrip(_ opaque: Bool, _ options: PNGEncoder.Options) throws {
        let (w, h) = (97, 61)
        let pixels = Self.image(width: w, height: h, opaque: opaque)
        let png = PNGEncoder.encode(premultiplied: pixels, width: w, height: h, options: options)
        let decoded = try #require(LibPNGOracle.decode(png))
        #expect(decoded.width == w && decoded.height == h)
        #expect(decoded.rgba == Self.straight(pixels))
        // IHDR colour type (byte 25): RGB only when asked and opaque.
        #expect(png[25] == (options.dropsOpaqueAlpha && opaque ? 2 : 6))
    }

    @Test("APNG frames replace their rectangles; the codec reads them back exactly")
    func apngRectangles() throws {
        let (w, h) = (20, 10)
        let red = [UInt8](repeating: 0, count: w * h * 4).enumerated().map {
            $0.offset % 4 == 0 || $0.offset % 4 == 3 ? UInt8(255) : 0
        }
        var writer = APNGWriter(width: w, height: h, frameCount: 2, plays: 3)
        writer.append(
            premultiplied: red, x: 0, y: 0, width: w, height: h, delay: FrameDelay(numerator: 120, denominator: 1000))
        let blue: [UInt8] = Array((0..<(4 * 3)).flatMap { _ in [0, 0, 255, 255] as [UInt8] })
        writer.append(
            premultiplied: blue, x: 5, y: 2, width: 4, height: 3, delay: FrameDelay(numerator: 3, denominator: 100))
        let bytes = writer.finish()
        let decoder = try AnimationDecoder(bytes: bytes)
        #expect(decoder.info.loopCount == 3 && decoder.info.frameCount == 2)
        #expect(decoder.info.frames[1].rect == FrameRect(x: 5, y: 2, width: 4, height: 3))
        let last = try decoder.frame(at: 1)
        #expect(last.pixel(x: 5, y: 2) == PremultipliedRGBA(r: 0, g: 0, b: 255, a: 255))
        #expect(last.pixel(x: 8, y: 4) == PremultipliedRGBA(r: 0, g: 0, b: 255, a: 255))
        #expect(last.pixel(x: 9, y: 4) == PremultipliedRGBA(r: 255, g: 0, b: 0, a: 255))
        #expect(last.pixel(x: 5, y: 5) == PremultipliedRGBA(r: 255, g: 0, b: 0, a: 255))
        // libpng, which ignores APNG chunks, sees the first frame as the still image.
        let still = try #require(LibPNGOracle.decode(bytes))
        #expect(Array(still.rgba[0..<4]) == [255, 0, 0, 255])
    }

    /// Bands of repeated rows between content: the fast path's hand-written zero-row blocks,
    /// parallel zlib chunks (more rows than one chunk holds) and every match-length remainder
    /// (widths 65 RGBA and 87 RGB leave 1 and 2 zeros after the 258-byte matches).
    @Test(
        "Fast PNGs with repeated-row bands decode in libpng exactly",
        arguments: [(65, false), (87, true), (1000, true), (333, false)])
    func fastBands(_ width: Int, _ opaque: Bool) throws {
        let height = 700
        let pixels = Self.bands(width: width, height: height, opaque: opaque)
        let png = PNGEncoder.encode(premultiplied: pixels, width: width, height: height, options: .fast)
        let decoded = try #require(LibPNGOracle.decode(png))
        #expect(decoded.rgba == Self.straight(pixels))
        // Our own decoder agrees too (the stream must be valid deflate for any inflater): it
        // premultiplies the stored straight samples, round(c * a / 255), which gives back
        // every premultiplied input pixel exactly.
        let ours = try AnimationDecoder(bytes: png).frame(at: 0)
        #expect(Reference.mismatches(ours.pixels, Reference.premultiplied(straight: decoded.rgba)) == 0)
        #expect(Reference.mismatches(ours.pixels, pixels) == 0)
    }

    /// The same images drawn a row at a time: rows are asked for by parallel workers, in
    /// bands that do not line up with the flat and textured bands, and never held whole.
    @Test(
        "Row-drawn fast PNGs decode in libpng exactly, RGB when declared opaque",
        arguments: [(65, false), (87, true), (1000, true), (1, false), (1, true), (2, true), (5, true), (6, true)])
    func rowDrawn(_ width: Int, _ opaque: Bool) throws {
        let height = 700
        let pixels = Self.bands(width: width, height: height, opaque: opaque)
        let png = PNGEncoder.encodeFast(width: width, height: height, opaque: opaque) { y, target in
            for i in 0..<(width * 4) { target[i] = pixels[y * width * 4 + i] }
        }
        let decoded = try #require(LibPNGOracle.decode(png))
        #expect(decoded.width == width && decoded.height == height)
        #expect(decoded.rgba == Self.straight(pixels))
        #expect(png[25] == (opaque ? 2 : 6))
    }

    /// Rows vouched for as repeats are never drawn, and the stream still holds them: the
    /// hint covers the flat bands but for their first rows (which differ from the row above),
    /// so drawn and skipped rows alternate around every band and chunk boundary, and a skipped
    /// row's neighbour below must be compared with the last row actually drawn.
    @Test(
        "Row-drawn fast PNGs skip the rows a repeat hint vouches for, and still decode exactly",
        arguments: [(87, true), (333, false)])
    func rowDrawnWithRepeatHint(_ width: Int, _ opaque: Bool) throws {
        let height = 700
        let pixels = Self.bands(width: width, height: height, opaque: opaque)
        let drawn = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: height)
        drawn.initialize(repeating: 0)
        defer { drawn.deallocate() }
        let flags = UncheckedRows(drawn)
        // Flat bands are the even hundreds; their rows after the first repeat the row above.
        let hinted: @Sendable (Int) -> Bool = { y in (y / 100) % 2 == 0 && y % 100 != 0 }
        let png = PNGEncoder.encodeFast(width: width, height: height, opaque: opaque, repeatsRowAbove: hinted) {
            y, target in
            flags.rows[y] = 1  // each row's flag is written by the one worker drawing it
            for i in 0..<(width * 4) { target[i] = pixels[y * width * 4 + i] }
        }
        let decoded = try #require(LibPNGOracle.decode(png))
        #expect(decoded.rgba == Self.straight(pixels))
        // A hinted row is drawn only as the row above a band's first drawn row (bands of 128).
        let drawnHinted = (1..<height).filter { hinted($0) && drawn[$0] == 1 }
        #expect(drawnHinted.count <= (height + 127) / 128, "hinted rows drawn: \(drawnHinted)")
        #expect(drawnHinted.allSatisfy { !hinted($0 + 1) })
        #expect((0..<height).allSatisfy { hinted($0) || drawn[$0] == 1 })
    }

    /// A buffer of per-row flags written from encoder workers, one row each.
    struct UncheckedRows: @unchecked Sendable {
        let rows: UnsafeMutableBufferPointer<UInt8>
        init(_ rows: UnsafeMutableBufferPointer<UInt8>) { self.rows = rows }
    }

    /// Even bands of 100 rows flat (rows repeat), odd bands textured; translucent unless `opaque`.
    static func bands(width: Int, height: Int, opaque: Bool) -> [UInt8] {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            let band = y / 100  // even bands flat, odd bands textured
            for x in 0..<width {
                let o = (y * width + x) * 4
                let a = opaque ? 255 : (band % 2 == 0 ? 128 : (x + y) % 256)
                let value = band % 2 == 0 ? band * 20 : (x * 13 + y * 7) % 256
                pixels[o] = UInt8(value * a / 255); pixels[o + 1] = UInt8((255 - value) * a / 255);
                pixels[o + 2] = UInt8(a / 2); pixels[o + 3] = UInt8(a)
            }
        }
        return pixels
    }
}
