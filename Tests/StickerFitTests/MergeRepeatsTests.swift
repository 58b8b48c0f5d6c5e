import AnimationCodec
import Foundation
import StickerFit
import StickerPack
import Testing

/// Merging repeated frames: consecutive identical frames become one frame shown for their
/// summed time, with Messages' timing (a delay under 11 ms shows for 100 ms); the written
/// APNG is read back by Pillow.
@Suite("fit: merging repeated frames", .timeLimit(.minutes(3)))
struct MergeRepeatsTests {
    @Test("repeats merge into one frame with the delays summed as Messages shows them")
    func merged() throws {
        let folder = try FitFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let side = StickerSize.small.pixels
        let a = FitFixtures.solid(width: side, height: side, 230, 40, 40)
        let b = FitFixtures.solid(width: side, height: side, 40, 200, 60)
        var nearlyB = b
        nearlyB[(150 * side + 150) * 4 + 2] = 61
        let c = FitFixtures.solid(width: side, height: side, 30, 60, 220)
        // Shown for 50, 100 (10 < 11), 80, 30, 100 (5 < 11), 20, 11 ms.
        let input = try FitFixtures.writeAPNG(
            [a, a, b, nearlyB, c, c, c], milliseconds: [50, 10, 80, 30, 5, 20, 11],
            width: side, height: side, to: folder.appendingPathComponent("blink.png"))

        let fitted = StickerFitter(options: FitFixtures.quickOptions()).fit(FitFixtures.sticker(input), size: .small)
        #expect(fitted.failure == nil)
        #expect(fitted.steps.map(\.kind) == [.shortDelays, .mergeRepeats, .encode])
        // 50 + 100 + 80 + 30 + 100 + 20 + 11 ms shown, 206 ms stored.
        #expect(
            fitted.steps.first?.detail.hasPrefix("2 of 7 frames stored under 11 ms") == true
                && fitted.steps.first?.detail.hasSuffix("the loop 0.39 s where its delays add up to 0.21 s") == true)
        #expect(fitted.steps.dropFirst().first?.detail.hasPrefix("7 -> 4 frames") == true)
        #expect(fitted.framesBefore == 7 && fitted.framesAfter == 4)
        #expect(fitted.fidelity.maxError == 0 && fitted.fidelity.psnr == nil, "merging is exact")
        guard case .file(_, let bytes) = fitted.output else { Issue.record("no file written"); return }
        let output = try FitFixtures.write(bytes, to: folder.appendingPathComponent("fitted.png"))

        let shown = try Pillow.decode(output)
        // a: 50 + 100; b: 80; the one-pixel change is not a repeat: 30; c: 100 + 20 + 11.
        #expect(shown.durationsMs == [150, 80, 30, 131])
        #expect(shown.frames.count == 4)
        if shown.frames.count == 4 {
            #expect(shown.frames[0] == a && shown.frames[1] == b && shown.frames[2] == nearlyB && shown.frames[3] == c)
        }
    }
}
