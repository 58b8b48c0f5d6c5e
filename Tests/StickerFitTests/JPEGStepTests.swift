import AnimationCodec
import Foundation
import StickerFit
import StickerPack
import Testing

/// The JPEG step: an opaque still too noisy for any PNG within the budget is written as JPEG,
/// the report names that step, and the error it reports agrees with what Pillow decodes.
@Suite("fit: JPEG for an opaque still", .timeLimit(.minutes(3)))
struct JPEGStepTests {
    @Test("a noisy opaque still fits only as JPEG, within the error the report gives")
    func jpeg() throws {
        let folder = try FitFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let side = StickerSize.small.pixels
        // The size's side already, so the scaled original is the input itself.
        let original = FitFixtures.noisyPhoto(width: side, height: side, amplitude: 20, seed: 11)
        let input = try FitFixtures.writePNG(
            original, width: side, height: side, to: folder.appendingPathComponent("photo.png"))
        let maxBytes = 40_000

        let fitted = StickerFitter(options: FitFixtures.quickOptions(maxBytes: maxBytes)).fit(
            FitFixtures.sticker(input), size: .small)
        #expect(fitted.failure == nil)
        // The exact PNG does not fit: written and over, or estimated far over and not written.
        let exact = try #require(fitted.steps.first)
        #expect(
            exact.kind == .encode
                && ((exact.bytesAfter ?? 0) > maxBytes || exact.detail.contains("far over the budget")), "\(exact)")
        let step = try #require(fitted.steps.last)
        #expect(step.kind == .jpeg && step.isLossy)
        #expect(!fitted.steps.contains { [.scale, .pad, .smallerSize, .frameRate].contains($0.kind) })
        guard case .file(let name, let bytes) = fitted.output else { Issue.record("no file written"); return }
        #expect(name == "photo.jpg")
        #expect(bytes.count <= maxBytes && step.bytesAfter == bytes.count && fitted.bytesAfter == bytes.count)
        #expect(step.maxError == fitted.fidelity.maxError && step.psnr == fitted.fidelity.psnr)

        let output = try FitFixtures.write(bytes, to: folder.appendingPathComponent("fitted.jpg"))
        let shown = try Pillow.decode(output)
        #expect(shown.width == side && shown.height == side && shown.frames.count == 1)
        let measured = PixelDifference(original, try #require(shown.frames.first))
        #expect(measured.maxError > 0, "JPEG changed pixels")
        #expect(
            fitted.fidelity.maxError == measured.maxError,
            "Pillow sees \(measured.maxError), the report says \(fitted.fidelity.maxError)")
        // PSNR over every channel of every pixel, alpha (never wrong) included, as the report counts it.
        let reported = try #require(fitted.fidelity.psnr)
        #expect(abs(reported - measured.psnr) <= 0.1, "Pillow sees \(measured.psnr) dB, the report says \(reported) dB")
    }
}
