import Foundation
import Testing

/// `stickers fit`'s `--lossless`, `--level` and `--name` on fixtures drawn by Pillow; the
/// written stickers are read back by Pillow.
@Suite("Option matrix: fit", .timeLimit(.minutes(3)))
struct FitOptionTests {
    /// Runs `stickers fit ARGUMENTS`; the result and the JSON report when --json was given.
    static func fit(_ arguments: [String]) throws -> (
        status: Int32, stdout: String, stderr: String, sticker: [String: Any]?
    ) {
        let result = try CLITests.runExecutable(["fit"] + arguments)
        guard arguments.contains("--json") else { return (result.status, result.stdout, result.stderr, nil) }
        let report = try FitCommandTests.report(result.stdout)
        return (result.status, result.stdout, result.stderr, (report["stickers"] as? [[String: Any]])?.first)
    }

    @Test("--lossless: a sticker over --max-bytes after the exact steps fails instead of taking a lossy step")
    func lossless() throws {
        let folder = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 300 x 300 px of random RGBA: 360,000 bytes of entropy, so no exact encoding reaches 150,000.
        let noise = try OptionFixtures.path("noise.png")
        let common = [noise, "--size", "small", "--max-bytes", "150000", "--json", "--threads", "1"]
        let lossy = try Self.fit(common + ["-o", folder.appendingPathComponent("Lossy.xcstickers").path])
        #expect(lossy.status == 0, "\(lossy.stdout)")
        let fitted = try #require(lossy.sticker)
        #expect(fitted["lossy"] as? Bool == true && (fitted["bytesAfter"] as? Int ?? .max) <= 150_000)
        let lossySteps = (fitted["steps"] as? [[String: Any]] ?? []).filter { $0["isLossy"] as? Bool == true }
        #expect(!lossySteps.isEmpty, "without --lossless a lossy step brings it under the limit")

        let catalog = folder.appendingPathComponent("Exact.xcstickers")
        let exact = try Self.fit(common + ["--lossless", "-o", catalog.path])
        #expect(exact.status == 1)
        let refused = try #require(exact.sticker)
        #expect(refused["fitted"] as? Bool == false && refused["lossy"] as? Bool == false)
        #expect(
            (refused["steps"] as? [[String: Any]] ?? []).allSatisfy { $0["isLossy"] as? Bool == false }, "\(refused)")
        #expect((refused["bytesAfter"] as? Int ?? 0) > 150_000)
        #expect((refused["failure"] as? String)?.contains("cannot fit in 150000 bytes") == true, "\(refused)")
        #expect(!FileManager.default.fileExists(atPath: catalog.path), "no sticker fitted, so nothing is written")
    }

    @Test("--dither: the palette the search takes is dithered (the report says so), and the sticker still fits")
    func dither() throws {
        let folder = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A still of 300 x 300 px of random RGBA: only a palette brings it under 150,000 bytes.
        let noise = try OptionFixtures.path("noise.png")
        let common = [noise, "--size", "small", "--max-bytes", "150000", "--json", "--threads", "1"]
        for dithered in [false, true] {
            let run = try Self.fit(
                common + (dithered ? ["--dither"] : []) + [
                    "-o", folder.appendingPathComponent("\(dithered).xcstickers").path
                ])
            #expect(run.status == 0, "\(run.stdout)")
            let fitted = try #require(run.sticker)
            #expect((fitted["bytesAfter"] as? Int ?? .max) <= 150_000)
            let palette = (fitted["steps"] as? [[String: Any]] ?? []).compactMap { $0["detail"] as? String }.filter {
                $0.contains("colours with alpha")
            }
            #expect(palette.count == 1, "\(fitted)")
            #expect(palette.allSatisfy { $0.contains("ordered dithering") == dithered }, "\(palette)")
        }
    }

    @Test(
        "--level changes the bytes, never the pixels; --name names the catalog in the report (else the output's name)")
    func levelAndName() throws {
        let folder = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        // loose.png (300 px, the small size's side) is stored uncompressed, so fit re-encodes it
        // rather than keeping it.
        let input = URL(fileURLWithPath: try OptionFixtures.path("loose.png"))
        let fast = folder.appendingPathComponent("Fast.xcstickers")
        let small = folder.appendingPathComponent("Small.xcstickers")
        let one = try Self.fit([
            input.path, "-o", fast.path, "--size", "small", "--level", "1", "--json", "--threads", "1"
        ])
        #expect(one.status == 0, "\(one.stdout)")
        #expect(try FitCommandTests.report(one.stdout)["catalog"] as? String == "Fast.xcstickers")
        let twelve = try Self.fit([
            input.path, "-o", small.path, "--size", "small", "--level", "12", "--name", "My Stickers", "--threads", "1"
        ])
        #expect(twelve.status == 0, "\(twelve.stdout)")
        #expect(twelve.stdout.hasPrefix("fit My Stickers: 1 sticker,"), "\(twelve.stdout)")

        let files = [try FitCommandTests.stickerFile(fast, "loose"), try FitCommandTests.stickerFile(small, "loose")]
        let sizes = try files.map {
            try #require(try FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? NSNumber).intValue
        }
        #expect(sizes[1] < sizes[0], "level 12 writes fewer bytes than level 1: \(sizes)")
        let images = try Pillow.animations([input] + files).map { try #require($0.frames.first) }
        #expect(images[1].pixels == images[0].pixels, "level 1 keeps every pixel")
        #expect(images[2].pixels == images[0].pixels, "level 12 keeps every pixel")
    }
}
