import AnimationCodec
import Foundation
import StickerPack
import Testing

@testable import StickerFit

/// A catalog made by an earlier fit carries its loss record; fitting it again (`fit` on the
/// catalog, `xcode` on it) keeps the record, so the loss stays stated and `--strict` still
/// refuses it.
@Suite("fit: an earlier fit's loss", .timeLimit(.minutes(3)))
struct EarlierLossTests {
    static let visible = FitLoss(psnr: 26.2, ssim: 0.99, givenUp: ["frame rate 60.0 -> 30.0 fps"])
    static let mild = FitLoss(psnr: 41, ssim: 0.99, givenUp: ["256 colours"])

    static func sticker(_ url: URL, _ loss: FitLoss) -> Sticker {
        Sticker(name: "s", source: .file(url), fitLoss: loss)
    }

    @Test("made exactly (kept as it is), the sticker carries the record unchanged; --strict refuses a visible one")
    func carriedWhenExact() throws {
        let folder = try FitFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = try FitFixtures.writePNG(
            FitFixtures.solid(width: 408, height: 408, 200, 40, 40), width: 408, height: 408,
            to: folder.appendingPathComponent("s.png"))
        let fitted = StickerFitter(options: FitFixtures.quickOptions()).fit(
            Self.sticker(url, Self.visible), size: .regular)
        #expect(fitted.succeeded && !fitted.isLossy, "\(fitted.failure ?? "")")
        #expect(fitted.loss == Self.visible)
        #expect(fitted.loss?.isVisible == true)

        var strict = FitFixtures.quickOptions()
        strict.strict = true
        let refused = StickerFitter(options: strict).fit(Self.sticker(url, Self.visible), size: .regular)
        #expect(refused.output == nil)
        #expect(
            refused.failure
                == "the input, from an earlier fit, was made with visible loss (under 30 dB or SSIM 0.90): 26.2 dB, SSIM 0.990: frame rate 60.0 -> 30.0 fps; --strict refuses it (without --strict it is made with this warning)"
        )
        let mildStrict = StickerFitter(options: strict).fit(Self.sticker(url, Self.mild), size: .regular)
        #expect(mildStrict.succeeded && mildStrict.loss == Self.mild, "\(mildStrict.failure ?? "")")
    }

    @Test(
        "made with loss again: this fit's figures, the earlier record named (among the unmeasured when it was visible)")
    func namedWhenLossyAgain() throws {
        let folder = try FitFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = try FitFixtures.writePNG(
            FitFixtures.noisyPhoto(width: 408, height: 408, amplitude: 60, seed: 7), width: 408, height: 408,
            to: folder.appendingPathComponent("s.png"))
        let options = FitFixtures.quickOptions(maxBytes: 60_000)
        for (record, visible) in [(Self.visible, true), (Self.mild, false)] {
            let fitted = StickerFitter(options: options).fit(Self.sticker(url, record), size: .regular)
            #expect(fitted.succeeded && fitted.isLossy, "\(fitted.failure ?? "")")
            let loss = try #require(fitted.loss)
            let earlier = "an earlier fit: " + record.description
            #expect(loss.psnr == fitted.fidelity.psnr && loss.givenUp.last == earlier, "\(loss)")
            #expect(loss.unmeasured.contains(earlier) == visible, "\(loss)")
        }
    }
}
