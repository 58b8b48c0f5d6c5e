import AnimationCodec
import Foundation
import Testing

/// WebP stills and animations made by libwebp's own encoders (cwebp, img2webp), decoded by
/// us and compared with Pillow's decoder (its own libwebp build and compositor).
@Suite("WebP: cwebp / img2webp files against Pillow", .timeLimit(.minutes(1)))
struct WebPTests {
    static let corpus: URL = {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("stickerkit-webp-\(getpid())")
        try? FileManager.default.removeItem(at: dir)
        _ = try? ExternalReference.run(["python3", Fixtures.repoRoot.appendingPathComponent("Tests/Scripts/make_webp_corpus.py").path, dir.path])
        return dir
    }()

    nonisolated(unsafe) static let expectations: [String: [String: Any]] = {
        guard let data = try? Data(contentsOf: corpus.appendingPathComponent("expect.json")),
              let json = try? JSONSerialization.jsonObject(with: data) as? [String: [String: Any]] else { return [:] }
        return json
    }()

    static let names = ["still-lossless-alpha", "still-lossy-alpha", "still-lossy-opaque", "still-lossless-opaque",
                        "anim-lossless-alpha", "anim-lossy-alpha", "anim-mixed-opaque"]

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

    @Test("damaged WebP: a typed error, never a crash")
    func damaged() throws {
        let bytes = [UInt8](try Data(contentsOf: Self.corpus.appendingPathComponent("anim-lossy-alpha.webp")))
        for cut in [11, 20, 40, bytes.count / 2, bytes.count - 1] {
            #expect(throws: CodecError.self, "cut at \(cut)") {
                _ = try Fixtures.decodeAll(Array(bytes.prefix(cut)))
            }
        }
        // Garbage over the frames' bitstreams (the headers intact): libwebp refuses, we report.
        var scrambled = bytes
        for offset in stride(from: 120, to: bytes.count - 8, by: 7) { scrambled[offset] ^= 0x5A }
        #expect(throws: CodecError.self) { _ = try Fixtures.decodeAll(scrambled) }
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
