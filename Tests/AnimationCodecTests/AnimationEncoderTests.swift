import Foundation
import Testing

@testable import AnimationCodec

/// The optimising encoder: every file it writes must decode, in independent decoders, to
/// exactly the frames it was given, and its choices must make files smaller.
@Suite("AnimationEncoder: exact, cropped, smallest colour type", .timeLimit(.minutes(3)))
struct AnimationEncoderTests {
    /// A scene: straight RGBA per pixel and frame, premultiplied here by the test's own rule.
    struct Scene: CustomTestStringConvertible, Sendable {
        var name: String
        var side: Int
        var frameCount: Int
        var paint: @Sendable (_ frame: Int, _ x: Int, _ y: Int) -> (Int, Int, Int, Int)
        var testDescription: String { name }

        var frames: [[UInt8]] {
            (0..<frameCount).map { f in
                var pixels = [UInt8](repeating: 0, count: side * side * 4)
                for y in 0..<side {
                    for x in 0..<side {
                        let (r, g, b, a) = paint(f, x, y)
                        let p = (y * side + x) * 4
                        pixels[p] = Reference.premultiply(r, a)
                        pixels[p + 1] = Reference.premultiply(g, a)
                        pixels[p + 2] = Reference.premultiply(b, a)
                        pixels[p + 3] = UInt8(a)
                    }
                }
                return pixels
            }
        }
    }

    static func disc(_ x: Int, _ y: Int, cx: Int, cy: Int, r: Int) -> Bool {
        (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r
    }

    static let scenes: [Scene] = [
        // A soft-edged ball moving over nothing: translucent edges, many colours (RGBA).
        Scene(name: "soft ball on transparent", side: 48, frameCount: 8) { f, x, y in
            let d = Double((x - 10 - 3 * f) * (x - 10 - 3 * f) + (y - 20) * (y - 20)).squareRoot()
            let a = max(0, min(255, Int((12 - d) * 40)))
            return (200 + x % 50, 40 + y * 3, 90 + f * 7, a)
        },
        // Three flat colours and transparency (palette), a shape that appears and disappears.
        Scene(name: "flat shapes, palette", side: 40, frameCount: 6) { f, x, y in
            if disc(x, y, cx: 8 + 4 * f, cy: 12, r: 6) { return (250, 0, 0, 255) }
            if f % 2 == 0 && x > 25 && y > 25 { return (0, 0, 255, 128) }
            return y > 34 ? (0, 200, 0, 255) : (0, 0, 0, 0)
        },
        // Opaque photo-like gradient with a moving square (RGB).
        Scene(name: "opaque gradient, moving square", side: 50, frameCount: 5) { f, x, y in
            if x >= 5 + f * 6 && x < 15 + f * 6 && y >= 20 && y < 30 { return (255, 255, 255, 255) }
            return (x * 5, y * 5, (x * y) % 256, 255)
        },
        // Translucent layers whose pixels change to transparent: OVER cannot express that.
        Scene(name: "fading to transparent", side: 32, frameCount: 5) { f, x, y in
            let a = max(0, 200 - f * 50 - x)
            return ((x * 8) % 256, (y * 8) % 256, 100, a)
        },
        // Frames that repeat (an empty change) and a loop back to the start.
        Scene(name: "repeats and returns", side: 24, frameCount: 6) { f, x, y in
            let phase = [0, 0, 1, 1, 0, 2][f]
            return disc(x, y, cx: 6 + phase * 5, cy: 12, r: 4) ? (10, 200, 30, 255) : (0, 0, 0, 0)
        },
        Scene(name: "a still", side: 30, frameCount: 1) { _, x, y in
            ((x * 9) % 256, (y * 9) % 256, (x ^ y) * 7 % 256, (x + y) * 4 % 256)
        },
        // An opaque picture on a transparent pad, as fit pads a clip to a square, its colours
        // moving: more than 256 colours, black among them, every pixel opaque or transparent
        // (RGB with a colour key that no opaque pixel has); the picture's rectangle shifts, so
        // pixels turn transparent and opaque again between frames. Frames are never disposed
        // to the background or the previous frame with a colour key: Pillow then paints the
        // cleared canvas opaque black (it keeps an RGB canvas), where every browser clears it.
        Scene(name: "opaque picture on a transparent pad, colour key", side: 40, frameCount: 5) { f, x, y in
            guard y >= 6 + f && y < 30 + f else { return (0, 0, 0, 0) }
            if x == 3 && y == 10 + f { return (0, 0, 0, 255) }
            if x >= 8 + 4 * f && x < 16 + 4 * f && y >= 12 + f && y < 20 + f { return (255, 255, 255, 255) }
            return ((x * 13 + f * 3) % 256, (y * 11) % 256, (x * y + f) % 256, 255)
        }
    ]

    func encode(_ scene: Scene, frames: [[UInt8]], level: Int32 = 12) -> AnimationEncoder.Encoded {
        let delays = (0..<frames.count).map { FrameDelay(numerator: 10 * ($0 + 1), denominator: 1000) }
        return AnimationEncoder.encode(
            frames: frames, delays: delays, width: scene.side, height: scene.side, plays: 2,
            options: .init(compressionLevel: level, threads: 2))
    }

    @Test(
        "decodes to exactly the frames given: libpng + a spec compositor, Pillow, and ours",
        arguments: scenes, [Int32(12), 6])
    func exact(scene: Scene, level: Int32) throws {
        let frames = scene.frames
        let encoded = encode(scene, frames: frames, level: level)
        if frames.count > 1 {
            let reference = try #require(LibPNGAPNGReference.render(encoded.bytes))
            #expect(reference == frames)
        } else {
            let image = try #require(LibPNGOracle.decode(encoded.bytes))
            #expect(Reference.premultiplied(straight: image.rgba) == frames[0])
        }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "stickerkit-encoder-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(encoded.bytes).write(to: url)
        let pillow = try ExternalReference.pillow.decode(url)
        #expect(pillow.frames == frames)
        let decoder = try AnimationDecoder(bytes: encoded.bytes)
        #expect(try decoder.decodeAllFrames(threads: 1).map(\.pixels) == frames)
        #expect(decoder.info.format == (frames.count > 1 ? .apng : .png))
        if frames.count > 1 {
            #expect(decoder.info.plays == 2)
            let stored: [Double] = decoder.info.frames.map(\.delay.milliseconds)
            let given: [Double] = (0..<frames.count).map { Double(10 * ($0 + 1)) }
            #expect(stored == given)
        }
    }

    @Test(
        "frames made on demand plan the same file as frames held, and it decodes (libpng and a spec compositor) to them",
        arguments: scenes, [Int32(12), 6])
    func streamed(scene: Scene, level: Int32) throws {
        let frames = scene.frames
        let delays = (0..<frames.count).map { FrameDelay(numerator: 10 * ($0 + 1), denominator: 1000) }
        let options = AnimationEncoder.Options(compressionLevel: level, threads: 2)
        var passes = 0
        let streamed = AnimationEncoder.plan(
            streaming: { body in
                passes += 1
                for frame in frames { body(frame) }
            }, delays: delays, width: scene.side, height: scene.side, plays: 2, options: options
        ).encode(level: level, threads: 2)
        #expect(streamed.bytes == encode(scene, frames: frames, level: level).bytes)
        // The colour model, then each model planned (two for a palette of up to 16 colours
        // below the optimal-parsing levels, whose packed and whole-byte indexes are both tried).
        #expect(passes >= 2 && passes <= 3)
        if frames.count > 1 {
            #expect(try #require(LibPNGAPNGReference.render(streamed.bytes)) == frames)
        } else {
            let image = try #require(LibPNGOracle.decode(streamed.bytes))
            #expect(Reference.premultiplied(straight: image.rgba) == frames[0])
        }
    }

    @Test("straightening for PNG loses nothing: every premultiplied (colour, alpha) pair comes back")
    func straightRoundTrip() {
        var lost: [String] = []
        for alpha in 1...255 {
            for color in 0...alpha {
                let straight = PNGEncoder.unpremultiply(UInt8(color), alpha: UInt8(alpha))
                if Reference.premultiply(Int(straight), alpha) != UInt8(color) { lost.append("\(color)/\(alpha)") }
            }
        }
        #expect(lost.isEmpty, "\(lost.count) pairs change, e.g. \(lost.prefix(5))")
    }

    @Test("a small palette packs its indexes (2 bits for 4 colours) where that compresses smaller")
    func packedIndexes() {
        let scene = Self.scenes[1]
        let packed = encode(scene, frames: scene.frames, level: 6).bytes
        #expect(packed[24] == 2 && packed[25] == 3, "IHDR: bit depth 2, colour type 3")
        // At libdeflate's optimal-parsing levels the indexes stay whole bytes.
        #expect(encode(scene, frames: scene.frames, level: 12).bytes[24] == 8)
    }

    @Test("the colour type is the smallest exact one")
    func colorType() {
        let types = Self.scenes.map { scene in encode(scene, frames: scene.frames).bytes[25] }
        // IHDR's colour type byte: 6 RGBA, 3 palette, 2 RGB (the last with a tRNS colour key).
        #expect(types == [6, 3, 2, 6, 3, 6, 2])
        switch PNGColorModel.smallest(for: Self.scenes[1].frames) {
        case .palette(let palette):
            #expect(palette.colors.count == 4)  // red, green, translucent blue, transparent
            #expect(palette.colors.first == 0)
        case let other:
            Issue.record("four colours with transparency take a palette, not \(other)")
        }
    }

    @Test("later frames are cropped to what changed and use the cheapest ops")
    func cropsAndChoosesOps() throws {
        let scene = Self.scenes[0]
        let encoded = encode(scene, frames: scene.frames)
        #expect(encoded.frames[0].rect == FrameRect(x: 0, y: 0, width: 48, height: 48))
        // A ball moving over nothing is cheapest cleared behind it: every frame but the last is
        // disposed to the background, so each later frame is drawn on a clear canvas and stores
        // exactly its own ball. Frame f's ball has alpha (12 - d) * 40 > 0 wherever its distance
        // d from (10 + 3f, 20) is under 11.975: 11 pixels either side of the centre.
        #expect(encoded.frames.dropLast().map(\.dispose) == Array(repeating: .background, count: 7))
        #expect(
            encoded.frames.dropFirst().map(\.rect)
                == (1..<8).map { f in FrameRect(x: 10 + 3 * f - 11, y: 9, width: 23, height: 23) })
        let naive = PNGEncoder.encodeAnimation(
            scene.frames.map { .init(pixels: $0, delay: .centiseconds(10)) },
            width: 48, height: 48, plays: 2)
        #expect(encoded.bytes.count < naive.count, "\(encoded.bytes.count) vs full frames \(naive.count)")
        // A frame equal to the one before stores one pixel.
        let repeats = encode(Self.scenes[4], frames: Self.scenes[4].frames)
        #expect(repeats.frames[1].rect.width * repeats.frames[1].rect.height == 1)
    }

    @Test(
        "one rule stores a delay: whole milliseconds, else the exact fraction, else the finest unit that fits 16 bits")
    func storableDelays() {
        func stored(_ n: Int, _ d: Int) -> [UInt16] {
            let (numerator, denominator) = FrameDelay(numerator: n, denominator: d).apngFields
            return [numerator, denominator]
        }
        #expect(stored(3, 100) == [3, 100])
        #expect(stored(100_000, 1_000_000) == [100, 1000])
        #expect(stored(70_000, 1000) == [70, 1], "70 s: the exact fraction, 70/1")
        #expect(stored(1_000_000, 1) == [65535, 1], "longer than 16 bits of seconds hold: the longest")
        // A sequence's or a Lottie document's frame time, from seconds: exact where a fraction fits.
        func fields(_ seconds: Double) -> [Int] {
            let d = FrameDelay(seconds: seconds); return [d.numerator, d.denominator]
        }
        #expect(fields(7.0 / 90) == [7, 90], "not 78 ms")
        #expect(fields(1.0 / 60) == [1, 60] && fields(0.04) == [40, 1000] && fields(1 / 29.97) == [100, 2997])
    }
}
