import AnimationCodec
import Foundation
import TestSupport
import Testing

/// WebP stills and animations made by libwebp's own encoders (cwebp, img2webp), decoded by
/// us and compared with Pillow's decoder (its own libwebp build and compositor).
@Suite("WebP: cwebp / img2webp files against Pillow", .timeLimit(.minutes(3)))
struct WebPTests {
    static let corpus: URL = {
        let dir = RunFolders.removedAtExit(
            FileManager.default.temporaryDirectory.appendingPathComponent("stickerkit-webp-\(getpid())"))
        try? FileManager.default.removeItem(at: dir)
        _ = try? ExternalReference.run([
            "python3", Fixtures.repoRoot.appendingPathComponent("Tests/Scripts/make_webp_corpus.py").path, dir.path
        ])
        return dir
    }()

    nonisolated(unsafe) static let expectations: [String: [String: Any]] = {
        guard let data = try? Data(contentsOf: corpus.appendingPathComponent("expect.json")),
            let json = try? JSONSerialization.jsonObject(with: data) as? [String: [String: Any]]
        else { return [:] }
        return json
    }()

    static let names = [
        "still-lossless-alpha", "still-lossy-alpha", "still-lossy-opaque", "still-lossless-opaque",
        "anim-lossless-alpha", "anim-lossy-alpha", "anim-mixed-opaque"
    ]

    @Test("the generator made every file")
    func generated() {
        #expect(Set(Self.expectations.keys) == Set(Self.names))
    }

    @Test("structure and timing as the encoder was told", arguments: names)
    func structure(name: String) throws {
        let expect = try #require(Self.expectations[name])
        let bytes = [UInt8](try Data(contentsOf: Self.corpus.appendingPathComponent(name + ".webp")))
        #expect(ImageFormat.sniff(bytes) == .webp)
        #expect(ImageFormat.webp.isMessagesFormat == false)
        let decoder = try AnimationDecoder(bytes: bytes)
        #expect(decoder.info.format == .webp)
        #expect(decoder.info.width == expect["width"] as? Int)
        #expect(decoder.info.height == expect["height"] as? Int)
        #expect(decoder.frameCount == expect["frames"] as? Int)
        if let loops = expect["loops"] as? Int {
            #expect(decoder.info.loopCount == loops)
            #expect(decoder.info.plays == loops)
            #expect(decoder.info.frames.map { Int($0.delay.milliseconds.rounded()) } == expect["delayMs"] as? [Int])
        } else {
            #expect(decoder.info.loopCount == nil)
            #expect(decoder.info.plays == 1)
        }
    }

    @Test("every frame matches Pillow's, serial and parallel alike", arguments: names)
    func pixels(name: String) throws {
        let url = Self.corpus.appendingPathComponent(name + ".webp")
        let reference = try ExternalReference.pillow.decode(url)
        let bytes = [UInt8](try Data(contentsOf: url))
        let (info, serial) = try Fixtures.decodeAll(bytes, threads: 1)
        let (_, parallel) = try Fixtures.decodeAll(bytes, threads: 2)
        #expect(reference.frames.count == info.frameCount)
        #expect(serial.map(\.pixels) == parallel.map(\.pixels))
        for (index, (ours, theirs)) in zip(serial, reference.frames).enumerated() {
            // libwebp premultiplies and blends with its own rounding; Pillow blends straight
            // colour: the two agree to within two levels.
            let off = Reference.mismatches(ours.pixels, theirs, tolerance: 2)
            #expect(off == 0, "frame \(index): \(off) channels differ by more than 2")
        }
    }

    /// The chunks of a RIFF WebP, ANMF frames' own chunks listed after their frame: (offset of
    /// the chunk header, FourCC, payload length).
    static func chunks(_ bytes: [UInt8], from start: Int = 12, to end: Int? = nil) -> [(
        offset: Int, type: String, length: Int
    )] {
        var found: [(Int, String, Int)] = []
        var offset = start
        let end = end ?? bytes.count
        while offset + 8 <= end {
            let type = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
            let length = (0..<4).reduce(0) { $0 | Int(bytes[offset + 4 + $1]) << (8 * $1) }
            found.append((offset, type, length))
            // An ANMF payload: 16 bytes of frame header, then the frame's chunks.
            if type == "ANMF" { found += chunks(bytes, from: offset + 8 + 16, to: offset + 8 + length) }
            offset += 8 + length + (length & 1)
        }
        return found
    }

    @Test(
        "a WebP cut short: unrecognised before its form type, then truncated, the RIFF size against the bytes there are"
    )
    func cutShort() throws {
        let bytes = [UInt8](try Data(contentsOf: Self.corpus.appendingPathComponent("anim-lossy-alpha.webp")))
        // img2webp's RIFF size is the rest of the file.
        let declared = (4..<8).reduce(0) { $0 | Int(bytes[$1]) << (8 * ($1 - 4)) } + 8
        #expect(declared == bytes.count)
        // Before the form type "WEBP" (bytes 8 to 11) is whole, no format is recognised.
        #expect(throws: CodecError.unknownFormat) { _ = try Fixtures.decodeAll(Array(bytes.prefix(11))) }
        for cut in [12, 20, 40, bytes.count / 2, bytes.count - 1] {
            #expect(
                throws: CodecError.truncated(context: "RIFF declares \(bytes.count) bytes, file has \(cut)"),
                "cut at \(cut)"
            ) {
                _ = try Fixtures.decodeAll(Array(bytes.prefix(cut)))
            }
        }
    }

    @Test("garbage over a WebP's chunk headers: libwebp's demuxer refuses the container")
    func scrambledContainer() throws {
        let bytes = [UInt8](try Data(contentsOf: Self.corpus.appendingPathComponent("anim-lossy-alpha.webp")))
        var scrambled = bytes
        for offset in stride(from: 120, to: bytes.count - 8, by: 7) { scrambled[offset] ^= 0x5A }
        // The second ANMF's size now reaches past the file (webpinfo: "Errors detected";
        // Pillow: "could not create decoder object"); the RIFF size is untouched.
        let second = try #require(Self.chunks(bytes).filter { $0.type == "ANMF" }.dropFirst().first)
        #expect(
            Self.chunks(scrambled).contains { $0.offset == second.offset && $0.offset + 8 + $0.length > bytes.count })
        #expect(throws: CodecError.malformed(format: .webp, reason: "libwebp's demuxer rejects the container")) {
            _ = try Fixtures.decodeAll(scrambled)
        }
    }

    @Test("garbage inside one frame's VP8L bitstream: the frames before it decode, it is a bitstream error")
    func scrambledFrame() throws {
        let bytes = [UInt8](try Data(contentsOf: Self.corpus.appendingPathComponent("anim-lossless-alpha.webp")))
        let bitstreams = Self.chunks(bytes).filter { $0.type == "VP8L" }
        #expect(bitstreams.count == 6)
        let third = try #require(bitstreams.dropFirst(2).first)
        var scrambled = bytes
        // Past the VP8L header's 5 bytes (signature, size, alpha, version), which the demuxer reads.
        for offset in stride(from: third.offset + 8 + 5, to: third.offset + 8 + third.length, by: 3) {
            scrambled[offset] ^= 0x5A
        }
        // libwebp's dwebp on this frame alone: "Status: 3(BITSTREAM_ERROR)"; Pillow decodes
        // frames 0 and 1 of the file and fails on frame 2.
        let decoder = try AnimationDecoder(bytes: scrambled)
        #expect(decoder.frameCount == 6)
        let reference = try ExternalReference.pillow.decode(
            Self.corpus.appendingPathComponent("anim-lossless-alpha.webp"))
        for index in 0..<2 {
            let off = Reference.mismatches(try decoder.frame(at: index).pixels, reference.frames[index], tolerance: 2)
            #expect(off == 0, "frame \(index): \(off) channels differ by more than 2")
        }
        #expect(throws: CodecError.malformed(format: .webp, reason: "frame 2: libwebp status 3 (bitstream error)")) {
            _ = try decoder.frame(at: 2)
        }
        #expect(throws: CodecError.malformed(format: .webp, reason: "frame 2: libwebp status 3 (bitstream error)")) {
            _ = try Fixtures.decodeAll(scrambled)
        }
    }

    @Test("a WebP canvas larger than the limits is refused before decoding")
    func limits() throws {
        let bytes = [UInt8](try Data(contentsOf: Self.corpus.appendingPathComponent("anim-lossless-alpha.webp")))
        let tight = DecodingLimits(maxSide: 100, maxPixels: 1 << 20, maxFrames: 100, maxTotalDecodedBytes: 1 << 30)
        #expect(throws: CodecError.limitExceeded(.side(width: 120, height: 120, limit: 100))) {
            _ = try AnimationDecoder(bytes: bytes, limits: tight)
        }
        let fewFrames = DecodingLimits(maxSide: 1000, maxPixels: 1 << 20, maxFrames: 5, maxTotalDecodedBytes: 1 << 30)
        #expect(throws: CodecError.limitExceeded(.frames(6, limit: 5))) {
            _ = try AnimationDecoder(bytes: bytes, limits: fewFrames)
        }
    }
}
