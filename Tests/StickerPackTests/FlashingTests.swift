import AnimationCodec
import Foundation
import StickerPack
import Testing

/// The flashing rule against WCAG 2.3.1's general flash worked out by hand: a flash is a pair
/// of opposing changes of relative luminance of 0.1 or more with the darker side under 0.80;
/// more than three a second over a quarter of the sticker is named.
@Suite("Validation: flashing", .timeLimit(.minutes(2)))
struct FlashingTests {
    static let side = 408

    /// A canvas of `side` px: `fill` (premultiplied RGBA) inside the centred square of
    /// `square` px, `around` elsewhere.
    static func canvas(square: Int = side, fill: [UInt8], around: [UInt8] = [0, 0, 0, 0]) -> [UInt8] {
        var pixels: [UInt8] = []
        pixels.reserveCapacity(side * side * 4)
        let start = (side - square) / 2
        for y in 0..<side {
            for x in 0..<side {
                let inside = (start..<start + square).contains(x) && (start..<start + square).contains(y)
                pixels += inside ? fill : around
            }
        }
        return pixels
    }

    /// The findings of the flashing rule for an APNG of `frames` shown `delay` ms each.
    static func flashing(_ frames: [[UInt8]], delay: Int, plays: Int = 0) throws -> [ValidationFinding] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var writer = APNGWriter(width: side, height: side, frameCount: frames.count, plays: plays)
        for frame in frames {
            writer.append(
                premultiplied: frame, x: 0, y: 0, width: side, height: side,
                delay: FrameDelay(numerator: delay, denominator: 1000))
        }
        try Data(writer.finish()).write(to: folder.appendingPathComponent("flash.png"))
        let report = PackValidator().validate(try PackLoader.load(path: folder.path))
        return report.findings.filter { $0.rule == .flashing }
    }

    static let black: [UInt8] = [0, 0, 0, 255]
    static let white: [UInt8] = [255, 255, 255, 255]

    @Test("black and white in turn every 100 ms: 10 changes, 5 flashes a second, over the whole sticker")
    func fiveAHertz() throws {
        let frames = (0..<20).map { Self.canvas(fill: $0 % 2 == 0 ? Self.black : Self.white) }
        let found = try Self.flashing(frames, delay: 100)
        #expect(found.count == 1 && found.first?.severity == .warning, "\(found)")
        #expect(found.first?.measured == "5 flashes a second over 100%", "\(found)")
    }

    @Test("black and white in turn every 250 ms: 4 changes, 2 flashes a second, named by nothing")
    func twoAHertz() throws {
        let frames = (0..<8).map { Self.canvas(fill: $0 % 2 == 0 ? Self.black : Self.white) }
        #expect(try Self.flashing(frames, delay: 250).isEmpty)
    }

    @Test(
        "a flashing square over a ninth of the sticker is under a quarter of it; over four ninths it is named")
    func area() throws {
        let grey: [UInt8] = [128, 128, 128, 255]
        let small = (0..<20).map { Self.canvas(square: 136, fill: $0 % 2 == 0 ? Self.black : Self.white, around: grey) }
        #expect(try Self.flashing(small, delay: 100).isEmpty)
        let large = (0..<20).map { Self.canvas(square: 272, fill: $0 % 2 == 0 ? Self.black : Self.white, around: grey) }
        let found = try Self.flashing(large, delay: 100)
        // 272 x 272 of 408 x 408 is 44%; the blocks its edges cross change less but still count.
        #expect(found.count == 1, "\(found)")
        let area = found.first?.measured?.split(separator: " ").last.flatMap { Int($0.dropLast()) } ?? 0
        #expect((40...60).contains(area), "\(found)")
    }

    @Test("white and light grey (relative luminance 1.0 and 0.85) every 100 ms: the darker side is over 0.80, no flash")
    func lightFlicker() throws {
        let frames = (0..<20).map { Self.canvas(fill: $0 % 2 == 0 ? Self.white : [237, 237, 237, 255]) }
        #expect(try Self.flashing(frames, delay: 100).isEmpty)
    }

    @Test("clear and opaque black every 100 ms: over white it flashes, so it is named")
    func transparentFlash() throws {
        let frames = (0..<20).map { Self.canvas(fill: $0 % 2 == 0 ? [0, 0, 0, 0] : Self.black) }
        let found = try Self.flashing(frames, delay: 100)
        #expect(found.first?.measured == "5 flashes a second over 100%", "\(found)")
    }

    @Test("played once, three frames 100 ms apart make two changes: one flash, named by nothing")
    func playedOnce() throws {
        let frames = [Self.black, Self.white, Self.black].map { Self.canvas(fill: $0) }
        #expect(try Self.flashing(frames, delay: 100, plays: 1).isEmpty)
    }
}
