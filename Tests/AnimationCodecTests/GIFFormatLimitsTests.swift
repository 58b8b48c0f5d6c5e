import TestSupport
import Testing

@testable import AnimationCodec

/// GIFs at the edges of what the format allows, built in the test: LZW minimum code sizes
/// 9-11 (valid: the first codes are then 10-12 bits wide) and sides of 65,535 pixels (the
/// 16-bit maximum), each checked pixel by pixel against the palette colours it was built from.
@Suite("GIF format limits")
struct GIFFormatLimitsTests {
    static let palette: [(UInt8, UInt8, UInt8)] = [
        (255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 0), (0, 255, 255),
        (255, 0, 255), (128, 64, 32), (255, 255, 255)
    ]

    /// Every pixel of `frame` against the opaque palette colour of its index.
    static func expectPixels(_ frame: Frame, _ indexes: [UInt8], sourceLocation: SourceLocation = #_sourceLocation) {
        var wrong = 0
        for (pixel, index) in indexes.enumerated() {
            let (r, g, b) = palette[Int(index)]
            if Array(frame.pixels[pixel * 4..<pixel * 4 + 4]) != [r, g, b, 255] { wrong += 1 }
        }
        #expect(wrong == 0, "\(wrong) of \(indexes.count) pixels differ", sourceLocation: sourceLocation)
    }

    /// A pattern with runs and noise (so the LZW table fills and the code width grows).
    static func pattern(count: Int, seed: UInt64) -> [UInt8] {
        var generator = SplitMix(seed: seed)
        return (0..<count).map { i in i % 37 < 20 ? UInt8(i / 37 % 8) : UInt8(generator.next() % 8) }
    }

    @Test("minimum code sizes 9, 10 and 11 decode exactly, without a warning", arguments: 9...11)
    func wideCodes(minimumCodeSize: Int) throws {
        let indexes = Self.pattern(count: 96 * 80, seed: UInt64(minimumCodeSize))
        let gif = GIFBuilder(width: 96, height: 80, palette: Self.palette).file(
            indexes: indexes, minimumCodeSize: minimumCodeSize)
        let decoder = try AnimationDecoder(bytes: gif)
        let frame = try #require(try decoder.decodeAllFrames().first)
        #expect(frame.warnings.isEmpty, "\(frame.warnings)")
        Self.expectPixels(frame, indexes)
    }

    @Test("minimum code size 12 and above stays invalid: the frame draws nothing, with a warning", arguments: [12, 13])
    func tooWide(minimumCodeSize: Int) throws {
        let indexes = [UInt8](repeating: 1, count: 16)
        let gif = GIFBuilder(width: 4, height: 4, palette: Self.palette).file(
            indexes: indexes, minimumCodeSize: minimumCodeSize)
        let frame = try #require(try AnimationDecoder(bytes: gif).decodeAllFrames().first)
        #expect(frame.warnings.contains { $0.kind == .invalidLZWCode })
        #expect(frame.pixels.allSatisfy { $0 == 0 })
    }

    @Test("65535x1 and 1x65535 decode exactly under the default limits", arguments: [(65535, 1), (1, 65535)])
    func longestSides(width: Int, height: Int) throws {
        let indexes = Self.pattern(count: width * height, seed: 7)
        let gif = GIFBuilder(width: width, height: height, palette: Self.palette).file(
            indexes: indexes, minimumCodeSize: 3)
        let decoder = try AnimationDecoder(bytes: gif)
        #expect(decoder.info.width == width && decoder.info.height == height)
        let frame = try #require(try decoder.decodeAllFrames().first)
        #expect(frame.warnings.isEmpty)
        Self.expectPixels(frame, indexes)
    }
}
