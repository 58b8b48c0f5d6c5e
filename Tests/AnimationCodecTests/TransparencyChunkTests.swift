import Foundation
import Testing

@testable import AnimationCodec

/// tRNS chunks that break the PNG rules (misplaced, repeated, of the wrong length, in an image
/// with alpha) are ignored as libpng, the decoder behind browsers' PNG, ignores them: the
/// pixels match libpng's, and the file's warnings name the chunk.
@Suite("PNG: tRNS chunks libpng ignores", .timeLimit(.minutes(1)))
struct TransparencyChunkTests {
    /// A 3 x 2 image of `colorType`, its chunks between IHDR and IEND as `middle` writes them.
    static func png(colorType: UInt8, _ middle: (inout TestPNG) -> Void) -> [UInt8] {
        var png = TestPNG()
        png.header(width: 3, height: 2, colorType: colorType)
        middle(&png)
        png.chunk("IEND", [])
        return png.bytes
    }

    static let palette: [UInt8] = [255, 0, 0, 0, 255, 0]
    /// Rows of indexes 0, 0, 1 (filter 0).
    static let indexRows = TestPNG.zlibStored([0, 0, 0, 1, 0, 0, 0, 1])
    /// Grey rows of 16, 32, 16 (filter 0).
    static let greyRows = TestPNG.zlibStored([0, 16, 32, 16, 0, 16, 32, 16])

    static let cases: [(name: String, bytes: [UInt8], warned: Bool)] = [
        (
            "valid: one entry for a palette of two",
            png(colorType: 3) {
                $0.chunk("PLTE", palette)
                $0.chunk("tRNS", [0x80])
                $0.chunk("IDAT", indexRows)
            }, false
        ),
        (
            "three entries for a palette of two",
            png(colorType: 3) {
                $0.chunk("PLTE", palette)
                $0.chunk("tRNS", [0x80, 0x80, 0x80])
                $0.chunk("IDAT", indexRows)
            }, true
        ),
        (
            "before PLTE",
            png(colorType: 3) {
                $0.chunk("tRNS", [0x80])
                $0.chunk("PLTE", palette)
                $0.chunk("IDAT", indexRows)
            }, true
        ),
        (
            "after IDAT",
            png(colorType: 3) {
                $0.chunk("PLTE", palette)
                $0.chunk("IDAT", indexRows)
                $0.chunk("tRNS", [0x80])
            }, true
        ),
        (
            "repeated: the first kept",
            png(colorType: 3) {
                $0.chunk("PLTE", palette)
                $0.chunk("tRNS", [0xFF])
                $0.chunk("tRNS", [0x40])
                $0.chunk("IDAT", indexRows)
            }, true
        ),
        (
            "grey with four bytes",
            png(colorType: 0) {
                $0.chunk("tRNS", [0, 16, 0, 0])
                $0.chunk("IDAT", greyRows)
            }, true
        ),
        (
            "grey, valid",
            png(colorType: 0) {
                $0.chunk("tRNS", [0, 16])
                $0.chunk("IDAT", greyRows)
            }, false
        ),
        (
            // A 1-bit image reaches two entries, whatever PLTE holds: three tRNS entries are too many.
            "three entries for a 1-bit image's palette of three",
            {
                var png = TestPNG()
                png.header(width: 2, height: 1, bitDepth: 1, colorType: 3)
                png.chunk("PLTE", palette + [0, 0, 255])
                png.chunk("tRNS", [0x80, 0x80, 0x80])
                png.chunk("IDAT", TestPNG.zlibStored([0, 0x40]))
                png.chunk("IEND", [])
                return png.bytes
            }(), true
        ),
        (
            "in an RGBA image",
            png(colorType: 6) {
                $0.chunk("tRNS", [0, 255, 0, 0, 0, 0])
                $0.chunk("IDAT", TestPNG.zlibStored(TestPNG.solidRows(width: 3, height: 2, rgba: [255, 0, 0, 255])))
            }, true
        )
    ]

    @Test("Each file decodes to libpng's pixels; an ignored chunk is a warning", arguments: 0..<cases.count)
    func matchesLibPNG(_ index: Int) throws {
        let (name, bytes, warned) = Self.cases[index]
        let expected = try #require(LibPNGOracle.decode(bytes), "libpng reads \(name)")
        let decoder = try AnimationDecoder(bytes: bytes)
        let frames = try decoder.decodeAllFrames()
        #expect(frames.count == 1)
        #expect(frames.first?.pixels == Reference.premultiplied(straight: expected.rgba), "\(name)")
        let skipped = decoder.info.warnings.filter { $0.message.hasPrefix("tRNS chunk") }
        #expect(skipped.count == (warned ? 1 : 0), "\(name): \(decoder.info.warnings.map(\.message))")
    }
}
