import Foundation
import TestSupport
import Testing

@testable import AnimationCodec

/// The decoding API: lazy iteration, random access, parallel decoding identical to serial,
/// timing policies and JPEG.
@Suite("Decoding API")
struct DecodingTests {
    /// Every decodable animation we have: the sample pack and every shared suite.
    static let everyFile: [URL] = {
        var urls =
            ((try? FileManager.default.contentsOfDirectory(at: Fixtures.samplePack, includingPropertiesForKeys: nil))
                ?? [])
        if let walker = FileManager.default.enumerator(at: Fixtures.conformance, includingPropertiesForKeys: nil) {
            for case let url as URL in walker where ["png", "gif", "apng", "jpg"].contains(url.pathExtension) {
                urls.append(url)
            }
        }
        return urls.sorted { $0.path < $1.path }
    }()

    @Test("parallel decoding (2 and 3 threads) is bit-identical to serial on every file")
    func parallelEqualsSerial() throws {
        var compared = 0
        for url in Self.everyFile {
            guard let decoder = try? AnimationDecoder(bytes: [UInt8](Data(contentsOf: url))),
                let serial = try? decoder.decodeAllFrames(threads: 1)
            else { continue }
            for threads in [2, 3] {
                let parallel = try decoder.decodeAllFrames(threads: threads)
                #expect(
                    parallel.map(\.pixels) == serial.map(\.pixels), "\(url.lastPathComponent) with \(threads) threads")
            }
            compared += 1
        }
        // The sample pack's 6 stickers, plus over 300 suite files when the suites are there.
        let suites = ConformanceSuites.missing.isEmpty || ConformanceSuites.required
        #expect(compared > (suites ? 300 : 5), "\(compared) files")
    }

    @Test("the lazy iterator and random access give the same frames as a full decode")
    func iteratorAndRandomAccess() throws {
        for name in ["01-bouncing-blob.png", "02-spinning-star.gif", "04-party-popper.gif"] {
            let decoder = try AnimationDecoder(
                bytes: [UInt8](Data(contentsOf: Fixtures.samplePack.appendingPathComponent(name))))
            let all = try decoder.decodeAllFrames()
            var iterator = decoder.makeFrameIterator()
            var index = 0
            while let frame = try iterator.next() {
                #expect(frame.pixels == all[index].pixels)
                #expect(frame.info == decoder.info.frames[index])
                index += 1
            }
            #expect(index == decoder.frameCount)
            let last = decoder.frameCount - 1
            #expect(try decoder.frame(at: last).pixels == all[last].pixels)
            #expect(throws: CodecError.frameIndexOutOfRange(index: decoder.frameCount, frameCount: decoder.frameCount))
            {
                try decoder.frame(at: decoder.frameCount)
            }
        }
    }

    @Test(
        "timing policies are applied only when asked for",
        arguments: [
            (0.0, 0.0, 100.0, 100.0), (10, 10, 100, 100), (10.5, 10.5, 100, 100), (11, 11, 11, 11), (20, 20, 20, 20),
            (16.6, 16.6, 16, 16.6)
        ])
    func timingPolicies(stored: Double, raw: Double, browser: Double, apple: Double) {
        #expect(FrameTimingPolicy.raw.displayMilliseconds(forStored: stored) == raw)
        #expect(FrameTimingPolicy.browser.displayMilliseconds(forStored: stored) == browser)
        #expect(FrameTimingPolicy.apple.displayMilliseconds(forStored: stored) == apple)
    }

    @Test(
        "browsers read an APNG delay as whole milliseconds, rounded down, before the 10 ms rule (Chromium's png_image_reader.cc: delay_numerator * 1000 / delay_denominator)",
        arguments: [
            (105, 10_000, 100.0), (101, 10_000, 100), (111, 10_000, 11), (1, 60, 16), (57, 100, 570), (7, 0, 70),
            (1, 100, 100), (2, 100, 20), (65_535, 1, 65_535_000)
        ])
    func browserWholeMilliseconds(numerator: Int, denominator: Int, shown: Double) {
        #expect(
            FrameTimingPolicy.browser.displayMilliseconds(
                for: FrameDelay(numerator: numerator, denominator: denominator))
                == shown)
    }

    @Test("--timing browser keeps a video's and a Lottie file's frames at their own times (players go by timestamps)")
    func browserTimedAsStored() {
        let sixtieth = FrameDelay(numerator: 1, denominator: 60)
        #expect(FrameTimingPolicy.browser.displayMilliseconds(for: sixtieth, format: .apng) == 16)
        #expect(abs(FrameTimingPolicy.browser.displayMilliseconds(for: sixtieth, format: .lottie) - 1000.0 / 60) < 1e-9)
        #expect(abs(FrameTimingPolicy.browser.displayMilliseconds(for: sixtieth, format: .webm) - 1000.0 / 60) < 1e-9)
        #expect(FrameTimingPolicy.browser.displayMilliseconds(for: sixtieth, format: nil) == 16)
        // Messages' rule is the same for every format.
        #expect(abs(FrameTimingPolicy.apple.displayMilliseconds(for: sixtieth, format: .lottie) - 1000.0 / 60) < 1e-9)
        // A numerator no file holds (APNG's is 16 bits) does not overflow.
        #expect(
            FrameTimingPolicy.browser.displayMilliseconds(for: FrameDelay(numerator: Int.max / 10, denominator: 1)) > 0)
    }

    @Test(
        "the decoder reports delays raw: a GIF's 0 and an APNG's 0/0 stay 0",
        .needs("image-gif-tests", "apng-philip-taylor"))
    func rawDelays() throws {
        let gif = try AnimationDecoder(bytes: Fixtures.bytes("image-gif-tests", "samples/beacon.gif"))
        #expect(gif.info.frames.allSatisfy { $0.delay.milliseconds == 0 })
        let apng = try AnimationDecoder(bytes: Fixtures.bytes("apng-philip-taylor", "delay_zero_numer.png"))
        #expect(apng.info.frames[1].delay == FrameDelay(numerator: 0, denominator: 0))
    }

    @Test("JPEG stickers decode through libjpeg-turbo, opaque, matching Pillow within 1")
    func jpeg() throws {
        let url = Fixtures.samplePack.appendingPathComponent("06-blob-card.jpg")
        let decoder = try AnimationDecoder(bytes: [UInt8](Data(contentsOf: url)))
        #expect(decoder.info.format == .jpeg && decoder.frameCount == 1)
        let frame = try decoder.frame(at: 0)
        #expect(stride(from: 3, to: frame.pixels.count, by: 4).allSatisfy { frame.pixels[$0] == 255 })
        let pillow = try ExternalReference.pillow.decode(url)
        #expect(Reference.mismatches(frame.pixels, pillow.frames[0], tolerance: 1) == 0)
    }

    @Test("a corrupt JPEG is a typed error with libjpeg's message")
    func corruptJPEG() throws {
        var bytes = [UInt8](try Data(contentsOf: Fixtures.samplePack.appendingPathComponent("06-blob-card.jpg")))
        bytes.removeSubrange(4..<200)
        #expect {
            _ = try AnimationDecoder(bytes: bytes).decodeAllFrames()
        } throws: { error in
            if case .jpeg(let message) = error as? CodecError { return !message.isEmpty }
            return false
        }
    }
}
