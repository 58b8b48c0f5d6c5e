import AnimationCodec
import Foundation
import StickerPack
import StickerPixels
import StickerRenderer
import StickerTranscript
import TestSupport
import Testing

/// A sticker that reads at load but has a frame that does not decode: the drawing goes on, the
/// sticker shows the crossed-out placeholder from that frame on, and the renderer names it,
/// as it names a sticker it cannot read at all.
@Suite("Damaged frames")
struct DamagedFrameTests {
    static let colours: [[UInt8]] = [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255, 255, 0, 255]]
    static let placeholderRed = PremultipliedRGBA(r: 255, g: 59, b: 48, a: 255)
    static let placeholderGrey = PremultipliedRGBA(r: 200, g: 200, b: 200, a: 255)

    /// Four solid 408 px frames of 100 ms, frame 2's data broken.
    static func damagedAnimation(_ files: RenderTests.Files) throws -> URL {
        let whole = files.animation("whole.png", side: 408, colors: colours, delaysMs: [100, 100, 100, 100], plays: 0)
        let damaged = try #require(DamagedPNG.withBrokenFrame([UInt8](try Data(contentsOf: whole)), frame: 2))
        try FileManager.default.removeItem(at: whole)
        return files.write("damaged.png", damaged)
    }

    @Test("Browser: frames before the damage drawn, then the placeholder in the sticker's place, the sticker named")
    func browser() throws {
        let files = RenderTests.Files()
        let renderer = BrowserRenderer(
            pack: RenderTests.pack([try Self.damagedAnimation(files)]), options: RenderTests.options())
        // The 1x cell of a 408 px sticker: (16, 8), 102 x 102; its centre (67, 59).
        let first = try renderer.snapshot(at: 0.15)
        #expect(first.pixel(x: 67, y: 59) == PremultipliedRGBA(r: 0, g: 255, b: 0, a: 255))
        #expect(renderer.problems.isEmpty)
        let damaged = try renderer.snapshot(at: 0.25)
        // The placeholder's cross passes through the centre; 31 px above it is its grey.
        #expect(damaged.pixel(x: 67, y: 59) == Self.placeholderRed)
        #expect(damaged.pixel(x: 67, y: 28) == Self.placeholderGrey)
        #expect(damaged.pixel(x: 15, y: 59) == PremultipliedRGBA(r: 255, g: 255, b: 255, a: 255))
        #expect(renderer.problems.map(\.sticker) == ["damaged.png"])
        let reason = renderer.problems.first?.error.description ?? ""
        #expect(reason.contains("invalid block type"), "\(reason)")
        // From then on, the placeholder.
        #expect(try renderer.snapshot(at: 0.35).pixel(x: 67, y: 59) == Self.placeholderRed)
        #expect(renderer.problems.count == 1)
    }

    @Test("Animated browser: the APNG made holds the frames before the damage, then the placeholder")
    func animatedBrowser() throws {
        let files = RenderTests.Files()
        let renderer = BrowserRenderer(
            pack: RenderTests.pack([try Self.damagedAnimation(files)]), options: RenderTests.options())
        var centres: [(start: Double, pixel: PremultipliedRGBA)] = []
        try renderer.animate(duration: 0.4) { image, _, start, _ in
            centres.append((start, image.pixel(x: 67, y: 59)))
        }
        #expect(centres.map(\.start) == [0, 0.1, 0.2, 0.3])
        #expect(
            centres.map(\.pixel) == [
                PremultipliedRGBA(r: 255, g: 0, b: 0, a: 255), PremultipliedRGBA(r: 0, g: 255, b: 0, a: 255),
                Self.placeholderRed, Self.placeholderRed
            ])
        #expect(renderer.problems.map(\.sticker) == ["damaged.png"])
    }
}
