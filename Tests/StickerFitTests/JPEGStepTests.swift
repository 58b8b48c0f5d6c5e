import AnimationCodec
import Foundation
import StickerFit
import StickerPack
import TestSupport
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

    @Test(
        "a smooth opaque still under a budget no JPEG of quality 45 meets is made as a lower-quality JPEG, above the floor as Pillow measures it"
    )
    func lowQualityJPEG() throws {
        let folder = try FitFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // The sample pack's 408 x 408 card, the regular size already: its own reference.
        let card = ConformanceSuites.repoRoot.appendingPathComponent("corpus/sample-pack/06-blob-card.jpg")
        let original = try #require(try Pillow.decode(card).frames.first)
        let maxBytes = 5_000
        // Pillow's (libjpeg's) JPEG of the card at quality 45 is over the budget.
        let probe = """
            import io, sys
            from PIL import Image
            buffer = io.BytesIO()
            Image.open(sys.argv[1]).convert("RGB").save(buffer, "JPEG", quality=45, optimize=True)
            print(len(buffer.getvalue()))
            """
        let q45 = try TestProcess.capture(["python3", "-c", probe, card.path])
        try #require(Int(q45.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0 > maxBytes, "\(q45.stdout)")

        let fitted = StickerFitter(options: FitFixtures.quickOptions(maxBytes: maxBytes)).fit(
            FitFixtures.sticker(card), size: .regular)
        #expect(fitted.failure == nil, "\(fitted.failure ?? "")")
        guard case .file(let name, let bytes) = fitted.output else { Issue.record("no file written"); return }
        #expect(name.hasSuffix(".jpg") && bytes.count <= maxBytes, "\(name): \(bytes.count) bytes")
        // A quality under 45, the lowest tried before.
        let quality = fitted.steps.last { $0.kind == .jpeg }?.detail.split(separator: " ").last.flatMap { Int($0) }
        #expect((quality ?? 100) < 45, "\(fitted.steps.map(\.detail))")
        let shown = try Pillow.decode(try FitFixtures.write(bytes, to: folder.appendingPathComponent("card.jpg")))
        let measured = PixelDifference(original, try #require(shown.frames.first))
        #expect(measured.psnr >= 20, "Pillow sees \(measured.psnr) dB")
        #expect(abs((fitted.fidelity.psnr ?? 0) - measured.psnr) <= 0.1, "\(fitted.fidelity) against \(measured.psnr)")
    }
}
