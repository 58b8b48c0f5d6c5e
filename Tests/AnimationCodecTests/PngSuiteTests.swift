import AnimationCodec
import Foundation
import TestSupport
import Testing

/// PngSuite (Willem van Schaik) with lunapaint's expected pixels: every valid image decodes
/// to exactly the expected colours (premultiplied here, and 16-bit values reduced with
/// round(v * 255 / 65535)), and every x* file is rejected.
@Suite("PngSuite conformance", .needs("pngsuite"), .timeLimit(.minutes(1)))
struct PngSuiteTests {
    static let suite = "pngsuite"
    static let valid = Fixtures.files(suite, "png", ext: "png").filter { !$0.hasPrefix("x") }
    static let corrupt = Fixtures.files(suite, "png", ext: "png").filter { $0.hasPrefix("x") }

    /// The expected premultiplied RGBA8 from lunapaint's JSON (16-bit JSON when the image is 16-bit).
    static func expectedPixels(_ name: String, bitDepth: Int) throws -> [UInt8] {
        let stem = name.replacingOccurrences(of: ".png", with: "")
        let data = try Data(contentsOf: Fixtures.url(suite, "json/\(stem).json"))
        let values = try JSONDecoder().decode([Int].self, from: data)
        let straight: [UInt8] = values.map { value in
            bitDepth == 16 ? UInt8((Double(value) * 255 / 65535).rounded(.toNearestOrAwayFromZero)) : UInt8(value)
        }
        return Reference.premultiplied(straight: straight)
    }

    @Test("the suite is present", .tags(.conformance))
    func suiteIsPresent() {
        #expect(Self.valid.count == 161)
        #expect(Self.corrupt.count == 14)
    }

    @Test("valid images decode to the expected pixels", .tags(.conformance), arguments: valid)
    func decodesExactly(name: String) throws {
        let bytes = try Fixtures.bytes(Self.suite, "png/\(name)")
        let decoder = try AnimationDecoder(bytes: bytes)
        #expect(decoder.info.format == .png)
        #expect(decoder.frameCount == 1)
        let frame = try decoder.frame(at: 0)
        let bitDepth = Int(decoder.info.details["bitDepth"] ?? "8") ?? 8
        let expected = try Self.expectedPixels(name, bitDepth: bitDepth)
        #expect(expected.count == frame.pixels.count)
        #expect(Reference.mismatches(frame.pixels, expected) == 0, "\(name): pixels differ from lunapaint's JSON")
    }

    @Test("corrupt x* images are rejected with a typed error", .tags(.conformance), arguments: corrupt)
    func rejectsCorrupt(name: String) throws {
        let bytes = try Fixtures.bytes(Self.suite, "png/\(name)")
        #expect(throws: CodecError.self) {
            let decoder = try AnimationDecoder(bytes: bytes)
            _ = try decoder.decodeAllFrames()
        }
    }

    @Test("colour chunks are reported, not applied")
    func colorChunksReported() throws {
        let gamma = try AnimationDecoder(bytes: Fixtures.bytes(Self.suite, "png/g03n2c08.png"))
        #expect(gamma.info.colorChunks?.gamma == 35000)
        let chrm = try AnimationDecoder(bytes: Fixtures.bytes(Self.suite, "png/ccwn2c08.png"))
        #expect(chrm.info.colorChunks?.chromaticities?.count == 8)
    }
}

extension Tag {
    /// Tests that read the shared conformance suites.
    @Tag static var conformance: Self
}
