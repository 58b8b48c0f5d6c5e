import AnimationCodec
import Foundation
import StickerFit
import StickerPack
import Testing

/// Keeping the input file: only when it already passes every rule (size, format, budget, no
/// repeated frames) and is smaller than the exact re-encoding; then its bytes are written as
/// they are. Inputs are written by Pillow (JPEG, WebP) or the package's plain PNG writer.
@Suite("fit: keeping the original file", .timeLimit(.minutes(3)))
struct KeepOriginalTests {
    static let side = StickerSize.small.pixels

    /// A 300 x 300 noisy photo as a Pillow JPEG (quality 80): far smaller than any exact PNG.
    static func photo(in folder: URL, side: Int = side, name: String = "photo.jpg") throws -> URL {
        let pixels = FitFixtures.noisyPhoto(width: side, height: side, amplitude: 20, seed: 7)
        return try FitFixtures.writeWithPillow(
            pixels, width: side, height: side, format: "JPEG", quality: 80,
            to: folder.appendingPathComponent(name))
    }

    @Test("a JPEG of the right size within the budget is kept byte for byte")
    func kept() throws {
        let folder = try FitFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try Self.photo(in: folder)
        let original = try FitFixtures.bytes(input)

        let fitted = StickerFitter(options: FitFixtures.quickOptions()).fit(FitFixtures.sticker(input), size: .small)
        #expect(fitted.failure == nil)
        #expect(fitted.steps.map(\.kind) == [.keepOriginal])
        guard case .file(let name, let bytes) = fitted.output else { Issue.record("no file written"); return }
        #expect(name == "photo.jpg")
        #expect(bytes == original, "the input's bytes, unchanged")
        #expect(fitted.bytesBefore == original.count && fitted.bytesAfter == original.count)
        #expect(fitted.framesBefore == 1 && fitted.framesAfter == 1)
        #expect(!fitted.isLossy)
    }

    @Test("a JPEG over the budget is not kept")
    func overBudget() throws {
        let folder = try FitFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try Self.photo(in: folder)
        let original = try FitFixtures.bytes(input)

        let fitted = StickerFitter(options: FitFixtures.quickOptions(maxBytes: original.count - 1)).fit(
            FitFixtures.sticker(input), size: .small)
        #expect(fitted.steps.last?.kind != .keepOriginal)
        let written = try #require(fitted.files.first, "fitted within the budget")
        #expect(written.bytes != original && written.bytes.count < original.count)
    }

    @Test("a JPEG of the wrong size is scaled and re-encoded, not kept")
    func wrongSize() throws {
        let folder = try FitFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try Self.photo(in: folder, side: Self.side - 1)

        let fitted = StickerFitter(options: FitFixtures.quickOptions()).fit(FitFixtures.sticker(input), size: .small)
        #expect(fitted.failure == nil)
        // 299 x 299 -> 300 x 300: square already, so nothing to pad.
        #expect(fitted.steps.map(\.kind) == [.scale, .encode])
        guard case .file(let name, _) = fitted.output else { Issue.record("no file written"); return }
        #expect(name == "photo.png")
    }

    @Test("a WebP (not a format Messages shows) is re-encoded exactly, though it is smaller")
    func webP() throws {
        let folder = try FitFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pixels = FitFixtures.noisyPhoto(width: Self.side, height: Self.side, amplitude: 20, seed: 7)
        let input = try FitFixtures.writeWithPillow(
            pixels, width: Self.side, height: Self.side, format: "WEBP", quality: 80,
            to: folder.appendingPathComponent("photo.webp"))
        let original = try FitFixtures.bytes(input)

        let fitted = StickerFitter(options: FitFixtures.quickOptions()).fit(FitFixtures.sticker(input), size: .small)
        #expect(fitted.failure == nil)
        #expect(fitted.steps.map(\.kind) == [.encode])
        guard case .file(let name, let bytes) = fitted.output else { Issue.record("no file written"); return }
        #expect(name == "photo.png")
        #expect(bytes.count > original.count, "re-encoded though larger: WebP fails the format rule")
        let output = try FitFixtures.write(bytes, to: folder.appendingPathComponent("fitted.png"))
        #expect(
            try Pillow.decode(output).frames == Pillow.decode(input).frames,
            "the exact step keeps every pixel Pillow decodes from the WebP")
    }

    @Test("a PNG that passes is not kept when the re-encoding is smaller")
    func largerOriginal() throws {
        let folder = try FitFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Plain RGBA, Sub-filtered rows: a one-colour image fits a far smaller palette PNG.
        let pixels = FitFixtures.solid(width: Self.side, height: Self.side, 250, 200, 0)
        let input = try FitFixtures.writePNG(
            pixels, width: Self.side, height: Self.side, to: folder.appendingPathComponent("sun.png"))

        let fitted = StickerFitter(options: FitFixtures.quickOptions()).fit(FitFixtures.sticker(input), size: .small)
        #expect(fitted.steps.map(\.kind) == [.encode])
        guard case .file(_, let bytes) = fitted.output else { Issue.record("no file written"); return }
        #expect(bytes.count < (try FitFixtures.fileSize(input)))
        let output = try FitFixtures.write(bytes, to: folder.appendingPathComponent("fitted.png"))
        #expect(try Pillow.decode(output).frames == [pixels])
    }
}
