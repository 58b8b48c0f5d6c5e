import AnimationCodec
import Foundation
import TestSupport
import Testing

/// PngSuite (Willem van Schaik) with lunapaint's expected pixels: every valid image decodes
/// to exactly the expected colours (premultiplied here, and 16-bit values reduced with
/// round(v * 255 / 65535)), and every x* file is rejected with the error for what it breaks.
@Suite("PngSuite conformance", .needs("pngsuite"), .timeLimit(.minutes(3)))
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

    /// What each x* file breaks (PngSuite's own names), and the documented error for it
    /// (docs/formats.md): a signature that is not PNG's is `unknownFormat`; a bad CRC on a
    /// critical chunk names the chunk, the stored CRC and zlib's CRC-32 of its type and data
    /// (both read with Python's zlib); an IHDR the spec forbids, or no IDAT before IEND, is
    /// `malformed`, its reason naming the value.
    enum Rejection: Sendable, CustomStringConvertible {
        case error(CodecError)
        /// `malformed(format: .png, ...)` whose reason contains this text.
        case malformed(String)

        var description: String {
            switch self {
            case .error(let error): return "\(error)"
            case .malformed(let reason): return "invalid PNG: ...\(reason)..."
            }
        }
    }

    static let rejections: [String: Rejection] = [
        "xs1n0g01.png": .error(.unknownFormat),  // signature byte 1 MSBit reset to zero
        "xs2n0g01.png": .error(.unknownFormat),  // signature byte 2 is a 'Q'
        "xs4n0g01.png": .error(.unknownFormat),  // signature byte 4 lowercase
        "xs7n0g01.png": .error(.unknownFormat),  // 7th byte a space instead of control-Z
        "xcrn0g04.png": .error(.unknownFormat),  // added cr bytes (0D 0D 1A 0D)
        "xlfn0g04.png": .error(.unknownFormat),  // added lf bytes (0A 0A 1A 0A)
        "xhdn0g08.png": .error(.chunkChecksumMismatch(chunk: "IHDR", declared: 0x4353_554D, computed: 0x5611_2528)),
        "xcsn0g01.png": .error(.chunkChecksumMismatch(chunk: "IDAT", declared: 0x4353_554D, computed: 0xD02F_14C9)),
        "xc1n0g08.png": .malformed("colour type 1 does not exist"),
        "xc9n2c08.png": .malformed("colour type 9 does not exist"),
        "xd0n2c08.png": .malformed("bit depth 0 is not allowed for colour type 2"),
        "xd3n2c08.png": .malformed("bit depth 3 is not allowed for colour type 2"),
        "xd9n2c08.png": .malformed("bit depth 99 is not allowed for colour type 2"),
        "xdtn0g01.png": .malformed("no IDAT chunk")  // IHDR, gAMA, IEND
    ]

    @Test("every x* file has its documented rejection")
    func everyCorruptFileCovered() {
        #expect(Set(Self.corrupt) == Set(Self.rejections.keys))
    }

    @Test("corrupt x* images are rejected with the documented error", .tags(.conformance), arguments: corrupt)
    func rejectsCorrupt(name: String) throws {
        let bytes = try Fixtures.bytes(Self.suite, "png/\(name)")
        let expected = try #require(Self.rejections[name])
        let result = Result { () throws(CodecError) -> Int in
            let decoder = try AnimationDecoder(bytes: bytes)
            return try decoder.decodeAllFrames().count
        }
        switch (expected, result) {
        case (.error(let error), .failure(let thrown)):
            #expect(thrown == error, "\(name)")
        case (.malformed(let reason), .failure(.malformed(let format, let thrownReason))):
            #expect(format == .png, "\(name)")
            #expect(thrownReason.contains(reason), "\(name): \(thrownReason)")
        case (_, .failure(let thrown)):
            Issue.record("\(name): expected \(expected), got \(thrown)")
        case (_, .success(let frames)):
            Issue.record("\(name): expected \(expected), decoded \(frames) frame(s)")
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
