import AnimationCodec
import Foundation
import StickerFit
import StickerPack
import Testing

/// Scaling and padding: a wrong-size, non-square sticker becomes the size class's square, its
/// longer side scaled by premultiplied Lanczos 3 (checked against ``ReferenceLanczos``, the
/// formula written in the test) and centred on transparent pixels at a hand-computed offset.
@Suite("fit: scaling and padding", .timeLimit(.minutes(3)))
struct ScalingTests {
    /// One case: the input's size, the size class, and the scaled size and offset worked out by hand.
    struct Case: CustomTestStringConvertible, Sendable {
        var width: Int, height: Int
        var size: StickerSize
        /// The longer side made the size's side, the other scaled alike and rounded.
        var scaledWidth: Int, scaledHeight: Int
        /// Where the scaled image sits: `(side - scaled) / 2`, the odd pixel left below or right.
        var x: Int, y: Int
        var testDescription: String { "\(width)x\(height) to \(size)" }
    }

    static let cases = [
        // Shrunk: 700 -> 300, 350 * 300 / 700 = 150; rows 0-74 and 225-299 are padding.
        Case(width: 700, height: 350, size: .small, scaledWidth: 300, scaledHeight: 150, x: 0, y: 75),
        // Enlarged: 120 -> 408, 79 * 408 / 120 = 268.6 -> 269; 139 rows of padding, 69 above, 70 below.
        Case(width: 120, height: 79, size: .regular, scaledWidth: 408, scaledHeight: 269, x: 0, y: 69),
        // Portrait: 150 -> 618, 100 * 618 / 150 = 412; 103 columns of padding each side.
        Case(width: 100, height: 150, size: .large, scaledWidth: 412, scaledHeight: 618, x: 103, y: 0)
    ]

    @Test(
        "the longer side becomes the size's side by premultiplied Lanczos 3, centred on transparent", arguments: cases)
    func scaledAndPadded(_ test: Case) throws {
        let folder = try FitFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let artwork = FitFixtures.softArtwork(width: test.width, height: test.height)
        let input = try FitFixtures.writePNG(
            artwork, width: test.width, height: test.height, to: folder.appendingPathComponent("art.png"))

        let fitted = StickerFitter(options: FitFixtures.quickOptions()).fit(FitFixtures.sticker(input), size: test.size)
        #expect(fitted.failure == nil)
        #expect(fitted.steps.map(\.kind) == [.scale, .pad, .encode])
        #expect(
            fitted.steps.first?.detail.hasPrefix(
                "\(test.width)x\(test.height) -> \(test.scaledWidth)x\(test.scaledHeight)") == true)
        guard case .file(let name, let bytes) = fitted.output else { Issue.record("no file written"); return }
        #expect(name == "art.png")
        let output = try FitFixtures.write(bytes, to: folder.appendingPathComponent("fitted.png"))

        let side = test.size.pixels
        let shown = try Pillow.decode(output)
        #expect(shown.width == side && shown.height == side)
        #expect(shown.frames.count == 1)
        let pixels = try #require(shown.frames.first)
        let expected = ReferenceLanczos.resize(
            artwork, width: test.width, height: test.height, to: test.scaledWidth, test.scaledHeight)
        var worst = 0
        var padding = 0
        var paddingVisible = 0
        for y in 0..<side {
            for x in 0..<side {
                let o = (y * side + x) * 4
                let inside =
                    (test.x..<test.x + test.scaledWidth).contains(x)
                    && (test.y..<test.y + test.scaledHeight).contains(y)
                if inside {
                    let e = ((y - test.y) * test.scaledWidth + (x - test.x)) * 4
                    for c in 0..<4 { worst = max(worst, abs(Int(pixels[o + c]) - Int(expected[e + c]))) }
                } else {
                    padding += 1
                    if pixels[o..<o + 4].contains(where: { $0 != 0 }) { paddingVisible += 1 }
                }
            }
        }
        #expect(padding == side * side - test.scaledWidth * test.scaledHeight)
        #expect(paddingVisible == 0, "padding pixels must be exactly transparent (0,0,0,0)")
        // Within one level: the product's horizontal taps are 14-bit fixed point and it
        // rounds ties to even; the reference is Double throughout.
        #expect(worst <= 1, "largest channel difference from the reference Lanczos 3: \(worst)")
    }
}
