import AnimationCodec
import Foundation
import StickerCLI
import StickerPack
import TestSupport
import Testing

/// `stickers fit`: wrong stickers in, a catalog that passes `validate` out. Pixels are checked
/// with Pillow (an independent decoder) against the inputs, within the error the report gives.
@Suite("stickers fit")
struct FitCommandTests {
    static let scripts = CLITests.repoRoot.appendingPathComponent("Tests/Scripts")

    /// Runs `corpus/make_wrong_stickers.py` into a fresh folder.
    static func inputs(_ flags: [String] = []) throws -> URL {
        let folder = CLITests.temporaryDirectory()
        let generator = CLITests.repoRoot.appendingPathComponent("corpus/make_wrong_stickers.py")
        let status = try run(["python3", generator.path, folder.path] + flags)
        try #require(status == 0, "make_wrong_stickers.py failed")
        return folder
    }

    @discardableResult
    static func run(_ arguments: [String]) throws -> Int32 { try TestProcess.run(arguments) }

    /// Pillow's frames of `url` (premultiplied by the test's own rule) and display times.
    static func pillow(_ url: URL) throws -> (frames: [[UInt8]], durationsMs: [Double]) {
        try reference(url, tool: "pillow")
    }

    /// The frames of `url` as `tool` (pillow or ffmpeg, through reference_frames.py) decodes
    /// them, premultiplied by the test's own rule, and Pillow's display times.
    static func reference(_ url: URL, tool: String) throws -> (frames: [[UInt8]], durationsMs: [Double]) {
        let out = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        try #require(
            try run(["python3", scripts.appendingPathComponent("reference_frames.py").path, tool, url.path, out.path])
                == 0)
        let meta = try CLITests.json(out.appendingPathComponent("meta.json"))
        let count = try #require(meta["frames"] as? Int)
        let frames = try (0..<count).map { index -> [UInt8] in
            var pixels = [UInt8](
                try Data(contentsOf: out.appendingPathComponent(String(format: "frame-%04d.rgba", index))))
            for p in stride(from: 0, to: pixels.count, by: 4) {
                let a = Double(pixels[p + 3])
                for c in 0..<3 {
                    pixels[p + c] = UInt8((Double(pixels[p + c]) * a / 255).rounded(.toNearestOrAwayFromZero))
                }
            }
            return pixels
        }
        let durations = (meta["durationsMs"] as? [Any])?.map { ($0 as? NSNumber)?.doubleValue ?? 0 } ?? []
        return (frames, durations)
    }

    /// The largest channel difference between what `output` shows and `input`'s frames, at
    /// each of the input's frame start times (Messages shows a delay under 11 ms as 100 ms).
    static func largestDifference(_ input: URL, _ output: URL) throws -> Int {
        let original = try pillow(input)
        let fitted = try pillow(output)
        func shown(_ ms: Double) -> Double { ms < 11 ? 100 : ms }
        var worst = 0
        var start = 0.0
        for (index, frame) in original.frames.enumerated() {
            var end = 0.0
            var shownIndex = fitted.frames.count - 1
            for (k, ms) in fitted.durationsMs.enumerated() {
                end += shown(ms)
                if start < end - 1e-6 { shownIndex = k; break }
            }
            let other = fitted.frames[shownIndex]
            try #require(other.count == frame.count, "frame sizes differ")
            for i in 0..<frame.count { worst = max(worst, abs(Int(frame[i]) - Int(other[i]))) }
            start += shown(original.durationsMs.indices.contains(index) ? original.durationsMs[index] : 0)
        }
        return worst
    }

    /// The alpha-weighted mean position of an image's pixels (pixel centres at + 0.5).
    static func alphaCentre(_ image: Picture) -> (x: Double, y: Double) {
        var total = 0.0
        var x = 0.0
        var y = 0.0
        for py in 0..<image.height {
            for px in 0..<image.width {
                let a = Double(image.pixel(px, py).a)
                total += a; x += a * (Double(px) + 0.5); y += a * (Double(py) + 0.5)
            }
        }
        return (x / total, y / total)
    }

    static func report(_ stdout: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(stdout.utf8)) as? [String: Any])
    }

    static func entries(_ report: [String: Any]) -> [String: [String: Any]] {
        let stickers = report["stickers"] as? [[String: Any]] ?? []
        return Dictionary(uniqueKeysWithValues: stickers.map { ($0["name"] as? String ?? "", $0) })
    }

    static func stickerFile(_ catalog: URL, _ name: String) throws -> URL {
        let folder = catalog.appendingPathComponent("Sticker Pack.stickerpack/\(name).sticker")
        let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != "Contents.json" }
        return folder.appendingPathComponent(try #require(files.first))
    }

    @Test(
        "the sample pack: every sticker fitted exactly, validate passes, the loader reads it back",
        .timeLimit(.minutes(3)))
    func samplePack() throws {
        let folder = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let catalog = folder.appendingPathComponent("Sample.xcstickers")
        let result = try CLITests.runExecutable([
            "fit", CLITests.samplePack.path, "-o", catalog.path, "--json", "--threads", "2"
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let report = try Self.report(result.stdout)
        let validation = try #require(report["validation"] as? [String: Any])
        #expect(
            (validation["findings"] as? [[String: Any]])?.filter { $0["severity"] as? String == "error" }.isEmpty
                == true)
        let pack = try PackLoader.load(path: catalog.path)
        let inputs = try FileManager.default.contentsOfDirectory(atPath: CLITests.samplePack.path).sorted()
        #expect(
            pack.stickers.map(\.name)
                == inputs.map { URL(fileURLWithPath: $0).deletingPathExtension().lastPathComponent })
        #expect(pack.declaredGridSize == .regular)
        #expect(try CLITests.runExecutable(["validate", catalog.path]).status == 0)
        for (name, entry) in Self.entries(report) {
            #expect(entry["fitted"] as? Bool == true)
            #expect(entry["lossy"] as? Bool == false, "\(name) needed no lossy step")
            #expect((entry["bytesAfter"] as? Int ?? .max) < 500_000)
            let steps = (entry["steps"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
            guard !steps.contains("scale") else { continue }
            // Not scaled: the output must show exactly the input's pixels at every time.
            let input = CLITests.samplePack.appendingPathComponent(
                try #require(inputs.first { $0.hasPrefix(name + ".") }))
            #expect(try Self.largestDifference(input, Self.stickerFile(catalog, name)) == 0, "\(name)")
        }
    }

    @Test("validate names a WebP as the wrong format and still gives its facts: Pillow's size, frames and loop")
    func webPFacts() throws {
        let inputs = try Self.inputs()
        defer { try? FileManager.default.removeItem(at: inputs) }
        let wave = inputs.appendingPathComponent("wave.webp").path
        let pillow = try TestProcess.capture([
            "python3", "-c",
            "import sys; from PIL import Image; im = Image.open(sys.argv[1]); d = 0\n"
                + "for i in range(im.n_frames):\n im.seek(i); im.load(); d += im.info['duration']\n"
                + "print(im.size[0], im.size[1], im.n_frames, d)", wave
        ])
        let expected = pillow.stdout.split(separator: " ").compactMap {
            Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        try #require(expected.count == 4, "\(pillow.stderr)")
        let result = try CLITests.runExecutable(["validate", wave, "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let summary = try #require((report["stickers"] as? [[String: Any]])?.first)
        #expect(summary["format"] as? String == "webp")
        #expect(
            summary["width"] as? Int == Int(expected[0]) && summary["height"] as? Int == Int(expected[1]), "\(summary)")
        #expect(summary["frameCount"] as? Int == Int(expected[2]), "\(summary)")
        #expect(summary["loopMilliseconds"] as? Double == expected[3], "\(summary)")
        let text = try CLITests.runExecutable(["validate", wave])
        #expect(text.stdout.contains("webp, "), "\(text.stdout)")
        #expect(
            text.stdout.contains("\(Int(expected[0]))x\(Int(expected[1])), \(Int(expected[2])) frames"),
            "\(text.stdout)")
    }

    @Test(
        "wrong stickers (too small, too big, GIF, WebP) are fixed; a broken WebP fails alone", .timeLimit(.minutes(3)))
    func wrongStickers() throws {
        let inputs = try Self.inputs()
        defer { try? FileManager.default.removeItem(at: inputs) }
        let catalog = inputs.appendingPathComponent("Fixed.xcstickers")
        let names = ["too-small.png", "too-big.gif", "wave.webp", "still.webp", "broken.webp"]
        let result = try CLITests.runExecutable(
            ["fit"] + names.map { inputs.appendingPathComponent($0).path }
                + [
                    "-o", catalog.path, "--json", "--label", "wave=A waving shape = hello", "--label", "nobody=x",
                    "--label",
                    "still.webp=x"
                ])
        #expect(result.status == 1, "a sticker failed, so the exit status says so")
        #expect(result.stderr.contains("no sticker is named nobody\n"), "\(result.stderr)")
        #expect(result.stderr.contains("no sticker is named still.webp; did you mean still?"), "\(result.stderr)")
        let entries = Self.entries(try Self.report(result.stdout))
        #expect(entries["broken"]?["fitted"] as? Bool == false)
        #expect((entries["broken"]?["failure"] as? String)?.contains("truncated") == true)
        let pack = try PackLoader.load(path: catalog.path)
        #expect(pack.stickers.map(\.name) == ["too-small", "too-big", "wave", "still"])
        #expect(
            pack.stickers.first { $0.name == "wave" }?.accessibilityLabel == "A waving shape = hello",
            "the text after the first = is the label")
        let validation = try CLITests.runExecutable(["validate", catalog.path, "--json"])
        #expect(validation.status == 0, "\(validation.stdout)")
        for sticker in pack.stickers {
            let decoder = try AnimationDecoder(bytes: [UInt8](Data(contentsOf: sticker.files[0])))
            #expect(decoder.info.width == 408 && decoder.info.height == 408, "\(sticker.name)")
            #expect(decoder.info.format.isMessagesFormat)
        }
        #expect(
            try AnimationDecoder(bytes: [UInt8](Data(contentsOf: Self.stickerFile(catalog, "wave")))).frameCount == 5)
        // The 200x150 input scaled by 408 / 200 is 408x306: centred on the 408x408 square, it
        // leaves (408 - 306) / 2 = 51 rows of padding above and below. Pillow reads both files:
        // every pixel of rows 0-50 and 357-407 is transparent, and the art's alpha-weighted
        // centre is the input's scaled by 2.04 and moved down 51 rows.
        let (input, small) = (
            try Pillow.image(inputs.appendingPathComponent("too-small.png")),
            try Pillow.image(Self.stickerFile(catalog, "too-small"))
        )
        try #require(input.width == 200 && input.height == 150 && small.width == 408 && small.height == 408)
        let padding = Array(0..<51) + Array(357..<408)
        let opaque = padding.filter { y in (0..<408).contains { small.pixel($0, y).a != 0 } }
        #expect(opaque.isEmpty, "padding rows with a visible pixel: \(opaque)")
        let (inputX, inputY) = Self.alphaCentre(input)
        let (outputX, outputY) = Self.alphaCentre(small)
        #expect(
            abs(outputY - (51 + inputY * 2.04)) < 0.25, "art centred at row \(outputY), expected \(51 + inputY * 2.04)")
        #expect(abs(outputX - inputX * 2.04) < 0.25, "art centred at column \(outputX), expected \(inputX * 2.04)")
    }

    // Three minutes: drawing the 60-frame 618 px input and fitting it through the lossy steps
    // takes about 27 s of CPU, 50 s on a loaded 2-core machine.
    @Test(
        "a heavy animation is brought under 500,000 bytes by named lossy steps, within the reported error",
        .timeLimit(.minutes(3)))
    func heavy() throws {
        let inputs = try Self.inputs(["--heavy"])
        defer { try? FileManager.default.removeItem(at: inputs) }
        let heavy = inputs.appendingPathComponent("heavy.png")
        let size = try #require((try FileManager.default.attributesOfItem(atPath: heavy.path))[.size] as? NSNumber)
            .intValue
        #expect(size > 2_000_000, "the input is several MB: \(size)")
        let catalog = inputs.appendingPathComponent("Heavy.xcstickers")
        // --size large: 618 px, as drawn, so the comparison needs no scaler.
        let result = try CLITests.runExecutable(["fit", heavy.path, "-o", catalog.path, "--size", "large", "--json"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let entry = try #require(Self.entries(try Self.report(result.stdout))["heavy"])
        let bytes = try #require(entry["bytesAfter"] as? Int)
        #expect(bytes < 500_000, "under 500 KB however counted: validate warns from 500,000 bytes")
        #expect(entry["lossy"] as? Bool == true)
        let steps = entry["steps"] as? [[String: Any]] ?? []
        let lossy = steps.filter { $0["isLossy"] as? Bool == true }
        // The knobs the search turned, each named, then the search itself with the file's figures.
        #expect(lossy.count >= 2 && lossy.last?["kind"] as? String == "search")
        #expect(
            lossy.last?["bytesAfter"] as? Int == bytes && lossy.last?["maxError"] as? Int == entry["maxError"] as? Int)
        let output = try Self.stickerFile(catalog, "heavy")
        #expect(try Data(contentsOf: output).count == bytes)
        let reported = try #require(entry["maxError"] as? Int)
        let measured = try Self.largestDifference(heavy, output)
        #expect(measured == reported, "Pillow sees \(measured), the report says \(reported)")
        #expect(measured > 0, "lossy steps changed pixels")
        #expect(try CLITests.runExecutable(["validate", catalog.path]).status == 0)
    }

    @Test(
        "damaged inputs (a GIF and a JPEG cut short) are made from what decodes with a warning saying so, never kept as they are",
        .timeLimit(.minutes(3)))
    func damagedInputs() throws {
        let folder = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var paths: [String] = []
        for (name, stem) in [("02-spinning-star.gif", "star"), ("06-blob-card.jpg", "card")] {
            let whole = try Data(contentsOf: CLITests.samplePack.appendingPathComponent(name))
            let ext = URL(fileURLWithPath: name).pathExtension
            for (prefix, bytes) in [("whole-", whole), ("cut-", whole.prefix(whole.count / 2))] {
                let url = folder.appendingPathComponent(prefix + stem + "." + ext)
                try bytes.write(to: url)
                paths.append(url.path)
            }
        }
        let catalog = folder.appendingPathComponent("Damaged.xcstickers")
        let result = try CLITests.runExecutable(["fit"] + paths + ["-o", catalog.path, "--json", "--threads", "1"])
        let report = try Self.report(result.stdout)
        let entries = Self.entries(report)
        for name in ["whole-star", "whole-card"] {
            #expect(entries[name]?["inputDamage"] as? [String] == [], "\(name)")
        }
        for name in ["cut-star", "cut-card"] {
            let entry = try #require(entries[name])
            let damage = entry["inputDamage"] as? [String] ?? []
            #expect(damage.contains { $0.contains("ends early") }, "\(name): \(damage)")
            #expect(entry["fitted"] as? Bool == true)
            let steps = (entry["steps"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
            #expect(!steps.contains("keep-original"), "\(name): \(steps)")
        }
        // What was written is whole: validate finds nothing damaged in the catalog.
        let validation = try #require(report["validation"] as? [String: Any])
        let findings = validation["findings"] as? [[String: Any]] ?? []
        #expect(!findings.contains { $0["rule"] as? String == "damaged" }, "\(findings)")

        // A sequence with one still cut short (its IEND chunk, the last 12 bytes) reports it the same way.
        let sample = folder.appendingPathComponent("Sample.xcstickers")
        try FileManager.default.copyItem(
            at: CLITests.repoRoot.appendingPathComponent("corpus/Sample.xcstickers"), to: sample)
        let still = sample.appendingPathComponent("Sticker Pack.stickerpack/Heart.stickersequence/heart-03.png")
        let bytes = try Data(contentsOf: still)
        try bytes.dropLast(12).write(to: still)
        let sequence = try CLITests.runExecutable([
            "fit", sample.path, "--dry-run", "--json", "--threads", "1", "--level", "1"
        ])
        let heart = try #require(Self.entries(try Self.report(sequence.stdout))["Heart"])
        let heartDamage = heart["inputDamage"] as? [String] ?? []
        #expect(heartDamage.contains { $0.contains("without an IEND chunk") }, "\(heartDamage)")
        #expect(Self.entries(try Self.report(sequence.stdout))["Star"]?["inputDamage"] as? [String] == [])
    }

    @Test(
        "a name over 150 characters makes a label shortened to 150 that passes validate; a --label over 150, empty or without a name, --lossless with --max-duration or --max-fps, and --min-fps over --max-fps are usage errors"
    )
    func longLabels() throws {
        let folder = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let name = String(repeating: "a", count: 160)
        let input = folder.appendingPathComponent(name + ".png")
        try FileManager.default.copyItem(at: CLITests.samplePack.appendingPathComponent("05-still-blob.png"), to: input)
        let catalog = folder.appendingPathComponent("Long.xcstickers")
        let result = try CLITests.runExecutable(["fit", input.path, "-o", catalog.path, "--json"])
        #expect(result.status == 0, "\(result.stdout)")
        let report = try Self.report(result.stdout)
        let steps = (Self.entries(report)[name]?["steps"] as? [[String: Any]] ?? []).compactMap {
            $0["kind"] as? String
        }
        #expect(steps.first == "label", "\(steps)")
        let written = try PackLoader.load(path: catalog.path)
        let label = try #require(written.stickers.first?.localizedDescription)
        // The name made a label (its first letter capitalised), then shortened.
        #expect(label.utf16.count == 150 && label.hasPrefix("A" + String(repeating: "a", count: 148)), "\(label)")
        #expect(PackValidator().validate(written).findings.allSatisfy { $0.rule != .descriptionLength })

        let tooLong = try CLITests.runExecutable([
            "fit", input.path, "--dry-run", "--label", "\(name)=" + String(repeating: "b", count: 151)
        ])
        #expect(tooLong.status == 64 && tooLong.stderr.contains("151 characters"), "\(tooLong.stderr)")
        let both = try CLITests.runExecutable(["fit", input.path, "--dry-run", "--lossless", "--max-duration", "1"])
        #expect(both.status == 64 && both.stderr.contains("--max-duration"), "\(both.stderr)")
        for (options, message) in [
            (["--lossless", "--max-fps", "30"], "--max-fps drops some"),
            (["--min-fps", "20", "--max-fps", "10"], "is above --max-fps"), (["--max-fps", "0"], "positive"),
            // Files validate refuses (512,000 bytes or more); negative numbers named as such.
            (["--max-bytes", "512000"], "validate refuses one of 512,000 bytes"),
            (["--min-psnr", "-5"], "--min-psnr must be 0-100 dB"),
            // A label with no name, or an empty one (VoiceOver would read nothing).
            (["--label", "=A blob"], "no sticker name before the \"=\""),
            (["--label", "\(name)="], "an empty label leaves VoiceOver nothing to read"),
            (["--label", "\(name)=  "], "an empty label leaves VoiceOver nothing to read"),
            (["--label", "\(name)=\u{200B}"], "an empty label leaves VoiceOver nothing to read"),
            (["--max-pixels", "-5"], "The value '-5' is invalid for '--max-pixels")
        ] {
            let refused = try CLITests.runExecutable(["fit", input.path, "--dry-run"] + options)
            #expect(refused.status == 64 && refused.stderr.contains(message), "\(options): \(refused.stderr)")
        }
    }

    @Test("a raster input scaled up more than twice is a warning with the factor; a 300 px one for 408 px is not")
    func upscaleWarning() throws {
        let folder = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Python.run(
            """
            import sys
            from PIL import Image
            Image.new("RGBA", (10, 8), (200, 40, 40, 255)).save(sys.argv[1] + "/tiny.png")
            Image.new("RGBA", (300, 300), (40, 200, 40, 255)).save(sys.argv[1] + "/small.png")
            """, [folder.path])
        // Regular asked for: by their sides alone the two make a small pack (10 px is no size's).
        let inputs = ["tiny.png", "small.png"].map { folder.appendingPathComponent($0).path } + ["--size", "regular"]
        let json = try CLITests.runExecutable(["fit"] + inputs + ["--dry-run", "--json", "--level", "1"])
        let entries = Self.entries(try Self.report(json.stdout))
        // 408 px over the longer side's 10 px.
        #expect(entries["tiny"]?["upscale"] as? Double == 40.8, "\(entries["tiny"] ?? [:])")
        #expect(entries["small"]?["upscale"] == nil)
        let text = try CLITests.runExecutable(["fit"] + inputs + ["--dry-run", "--level", "1"])
        #expect(text.stdout.contains("warning: the input was scaled up 40.8x"), "\(text.stdout)")
    }

    @Test("stickers that share a name: validate warns, fit names the second anew and says so")
    func sharedNames() throws {
        let folder = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (source, name) in [("02-spinning-star.gif", "a.gif"), ("05-still-blob.png", "a.png")] {
            try FileManager.default.copyItem(
                at: CLITests.samplePack.appendingPathComponent(source), to: folder.appendingPathComponent(name))
        }
        let validate = try CLITests.runExecutable(["validate", folder.path])
        #expect(
            validate.stdout.contains("warning [duplicate-name] a: 2 stickers share the name a"), "\(validate.stdout)")
        let fit = try CLITests.runExecutable(["fit", folder.path, "--dry-run", "--json", "--level", "1"])
        let entries = Self.entries(try Self.report(fit.stdout))
        #expect(Set(entries.keys) == ["a", "a 2"])
        let steps = (entries["a 2"]?["steps"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
        #expect(steps.first == "rename", "\(steps)")
        #expect(!((entries["a"]?["steps"] as? [[String: Any]] ?? []).contains { $0["kind"] as? String == "rename" }))
        func renameDetail(_ entry: [String: Any]?) -> String? {
            (entry?["steps"] as? [[String: Any]])?.first { $0["kind"] as? String == "rename" }?["detail"] as? String
        }
        #expect(
            renameDetail(entries["a 2"]) == "named a 2 in the catalog: another sticker has that name, letter case aside"
        )
        // A colon cannot be in a folder's name: that is the one reason given.
        try FileManager.default.moveItem(
            at: folder.appendingPathComponent("a.png"), to: folder.appendingPathComponent("b:c.png"))
        let colon = Self.entries(
            try Self.report(
                try CLITests.runExecutable(["fit", folder.path, "--dry-run", "--json", "--level", "1"]).stdout))
        #expect(
            renameDetail(colon["b-c"]) == "named b-c in the catalog: b:c cannot name a folder (b-c can)",
            "\(colon.keys)")
    }

    @Test("a catalog fitted again keeps its own complete icon set byte for byte; --icon replaces it")
    func catalogKeepsIcons() throws {
        let source = CLITests.repoRoot.appendingPathComponent("corpus/Sample.xcstickers")
        try #require(MessagesIconSet.problems(inCatalog: source).isEmpty, "the sample catalog's icon set is complete")
        let folder = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let kept = folder.appendingPathComponent("Kept.xcstickers")
        let redrawn = folder.appendingPathComponent("Redrawn.xcstickers")
        let star = CLITests.samplePack.appendingPathComponent("02-spinning-star.gif")
        #expect(try CLITests.runExecutable(["fit", source.path, "-o", kept.path, "--level", "1"]).status == 0)
        #expect(
            try CLITests.runExecutable(["fit", source.path, "-o", redrawn.path, "--level", "1", "--icon", star.path])
                .status == 0)
        var differing = 0
        for slot in MessagesIconSet.required {
            let original = try Data(contentsOf: try #require(MessagesIconSet.file(for: slot, inCatalog: source)))
            let keptFile = try #require(MessagesIconSet.file(for: slot, inCatalog: kept), "\(slot)")
            #expect(try Data(contentsOf: keptFile) == original, "\(slot)")
            let redrawnFile = try #require(MessagesIconSet.file(for: slot, inCatalog: redrawn), "\(slot)")
            if try Data(contentsOf: redrawnFile) != original { differing += 1 }
        }
        #expect(differing == MessagesIconSet.required.count, "--icon draws every icon anew")
        let black = folder.appendingPathComponent("Black.xcstickers")
        #expect(
            try CLITests.runExecutable([
                "fit", source.path, "-o", black.path, "--level", "1", "--icon-background", "black"
            ])
            .status == 0)
        let marketing = try #require(MessagesIconSet.required.last)
        #expect(
            try Data(contentsOf: try #require(MessagesIconSet.file(for: marketing, inCatalog: black)))
                != Data(contentsOf: try #require(MessagesIconSet.file(for: marketing, inCatalog: source))),
            "--icon-background draws the icons anew")
        #expect(MessagesIconSet.problems(inCatalog: kept).isEmpty)
    }

    @Test(
        "a sticker that cannot fit is an error naming the smallest size; the others are written",
        .timeLimit(.minutes(3)))
    func impossible() throws {
        let inputs = try Self.inputs(["--noise"])
        defer { try? FileManager.default.removeItem(at: inputs) }
        let catalog = inputs.appendingPathComponent("Tight.xcstickers")
        let result = try CLITests.runExecutable([
            "fit", inputs.appendingPathComponent("noise.png").path, inputs.appendingPathComponent("dot.png").path,
            "-o", catalog.path, "--max-bytes", "1000", "--size", "large", "--json"
        ])
        #expect(result.status == 1)
        let entries = Self.entries(try Self.report(result.stdout))
        let noise = try #require(entries["noise"])
        #expect(noise["fitted"] as? Bool == false)
        let failure = try #require(noise["failure"] as? String)
        #expect(failure.contains("smallest reached is \(noise["bytesAfter"] as? Int ?? -1) bytes"), "\(failure)")
        #expect((noise["bytesAfter"] as? Int ?? 0) > 1000)
        #expect(entries["dot"]?["fitted"] as? Bool == true)
        #expect(try PackLoader.load(path: catalog.path).stickers.map(\.name) == ["dot"])
        #expect(try Data(contentsOf: Self.stickerFile(catalog, "dot")).count <= 1000)
    }

    @Test(
        "validate's frame-rate advice, run: fit --max-fps 30 makes a 60 fps loop at 30 fps, of the same length, that validates clean"
    )
    func maxFrameRateAdvice() throws {
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // 24 frames at 60 fps (0.4 s, Pillow's 1/60 s stored as 17 ms): a square moving right.
        let script = """
            import sys
            from PIL import Image, ImageDraw
            frames = []
            for k in range(24):
                frame = Image.new("RGBA", (408, 408), (0, 0, 0, 0))
                ImageDraw.Draw(frame).rectangle([10 + 10 * k, 150, 110 + 10 * k, 250], fill=(0, 90, 200, 255))
                frames.append(frame)
            frames[0].save(sys.argv[1], save_all=True, append_images=frames[1:], duration=17, loop=0)
            """
        let input = folder.appendingPathComponent("fast.png")
        try #require(try TestProcess.run(["python3", "-c", script, input.path]) == 0)
        let advice = try CLITests.runExecutable(["validate", input.path])
        #expect(advice.stdout.contains("`stickers fit --max-fps 30` drops frames"), "\(advice.stdout)")
        let catalog = folder.appendingPathComponent("Slow.xcstickers")
        let fit = try CLITests.runExecutable(["fit", input.path, "-o", catalog.path, "--max-fps", "30", "--level", "1"])
        #expect(fit.status == 0, "\(fit.stdout)")
        let validate = try CLITests.runExecutable(["validate", catalog.path])
        #expect(validate.status == 0 && !validate.stdout.contains("frame-rate"), "\(validate.stdout)")
        let shown = try Self.pillow(try Self.stickerFile(catalog, "fast"))
        #expect(shown.frames.count == 12, "every other frame")
        #expect(abs(shown.durationsMs.reduce(0, +) - 24 * 17) < 1, "the loop keeps its length: \(shown.durationsMs)")
    }

    @Test(
        "validate's size advice, run: a 700 px PNG of 750 KB is refused naming fit for its pixels and its bytes, and fit's catalog of it validates clean"
    )
    func sizeAdvice() throws {
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Gradients with three bits of noise: Pillow writes them at about 750 KB.
        let script = """
            import random, sys
            from PIL import Image
            random.seed(1)
            w = 700
            im = Image.new("RGBA", (w, w))
            px = im.load()
            for y in range(w):
                for x in range(w):
                    n = random.randrange(8)
                    px[x, y] = (x * 255 // w ^ n, y * 255 // w ^ n, (x + y) * 255 // (2 * w) ^ n, 255)
            im.save(sys.argv[1])
            """
        let input = folder.appendingPathComponent("noisy.png")
        try #require(try TestProcess.run(["python3", "-c", script, input.path]) == 0)
        let bytes = try #require(try FileManager.default.attributesOfItem(atPath: input.path)[.size] as? Int)
        try #require(bytes >= 512_000, "the input is over 500 KiB: \(bytes) bytes")
        let advice = try CLITests.runExecutable(["validate", input.path])
        #expect(advice.status == 1)
        let lines = advice.stdout.split(separator: "\n")
        #expect(lines.first?.contains(": 1 sticker, grid-size") == true, "one sticker, counted as one")
        for rule in ["[file-size]", "[pixel-size]"] {
            let line = lines.first { $0.hasPrefix("error \(rule)") }
            #expect(line?.contains("`stickers fit`") == true, "\(rule): \(advice.stdout)")
        }
        let catalog = folder.appendingPathComponent("Fixed.xcstickers")
        let fit = try CLITests.runExecutable(["fit", input.path, "-o", catalog.path, "--level", "1"])
        #expect(fit.status == 0, "\(fit.stdout)")
        let validate = try CLITests.runExecutable(["validate", catalog.path])
        #expect(validate.status == 0 && !validate.stdout.contains("error"), "\(validate.stdout)")
    }

    @Test(
        "a folder of 618 px stickers is large in validate, render, review and fit (kept at 618 px); a catalog naming no size is regular"
    )
    func sizeFromStickers() throws {
        let folder = CLITests.temporaryDirectory()
        let pack = folder.appendingPathComponent("big")
        try FileManager.default.createDirectory(at: pack, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = """
            import sys
            from PIL import Image, ImageDraw
            for k in range(2):
                im = Image.new("RGBA", (618, 618), (0, 0, 0, 0))
                ImageDraw.Draw(im).ellipse([20, 20, 598, 598], fill=(200, 60 * k, 30, 255))
                im.save(f"{sys.argv[1]}/s{k}.png")
            """
        try #require(try TestProcess.run(["python3", "-c", script, pack.path]) == 0)
        let validate = try CLITests.runExecutable(["validate", pack.path, "--json"])
        let report = try Self.report(validate.stdout)
        #expect(report["gridSize"] as? String == "large" && report["gridSizeDeclared"] as? Bool == false)
        let render = try CLITests.runExecutable(["render", pack.path, "-o", folder.appendingPathComponent("r.png").path]
        )
        #expect(render.status == 0 && render.stdout.contains("compact large"), "\(render.stdout)")
        let review = try CLITests.runExecutable([
            "review", pack.path, "-o", folder.appendingPathComponent("review").path, "--no-fit", "--progress", "none"
        ])
        let page = try String(contentsOf: folder.appendingPathComponent("review/index.html"), encoding: .utf8)
        #expect(review.status == 0 && page.contains("grid size large (not declared)"), "\(review.stderr)")
        let catalog = folder.appendingPathComponent("Big.xcstickers")
        let fit = try CLITests.runExecutable(["fit", pack.path, "-o", catalog.path, "--level", "1"])
        #expect(fit.status == 0, "\(fit.stdout)")
        let written = try Self.pillow(try Self.stickerFile(catalog, "s0"))
        #expect(written.frames.first?.count == 618 * 618 * 4, "kept at 618 px, not scaled to 408")
        let shown = try Self.report(try CLITests.runExecutable(["validate", catalog.path, "--json"]).stdout)
        #expect(shown["gridSize"] as? String == "large" && shown["gridSizeDeclared"] as? Bool == true)
        // The same catalog without its grid-size is what Xcode shows regular: said so, drawn so.
        let contents = catalog.appendingPathComponent("Sticker Pack.stickerpack/Contents.json")
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: contents)) as? [String: Any])
        json["properties"] = nil
        try JSONSerialization.data(withJSONObject: json).write(to: contents)
        let undeclared = try CLITests.runExecutable(["validate", catalog.path])
        #expect(
            undeclared.stdout.hasPrefix("pack Big: 2 stickers, grid-size regular (not declared)"),
            "\(undeclared.stdout)")
        #expect(
            undeclared.stdout.contains(
                "warning [grid-size] s0: 618 px, but the catalog names no grid-size, so Messages shows it regular, at 408 px; declare grid-size large, or `stickers fit` scales it to 408 px"
            ), "\(undeclared.stdout)")
        let drawn = try CLITests.runExecutable([
            "render", catalog.path, "-o", folder.appendingPathComponent("c.png").path
        ])
        #expect(drawn.stdout.contains("compact regular"), "\(drawn.stdout)")
        let refit = try CLITests.runExecutable(["fit", catalog.path, "--dry-run", "--level", "1"])
        #expect(refit.stdout.hasPrefix("fit inputs: 2 stickers, regular,"), "\(refit.stdout)")
    }

    @Test(
        "the icons are drawn from the first sticker that shows anything, at a frame that shows it, not an empty first frame"
    )
    func iconFromVisibleFrame() throws {
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A blank still first, then a red square that pops in: frame 0 empty, then 40% of the
        // side, then 80% (the fullest, which the icon is drawn from).
        let script = """
            import sys
            from PIL import Image, ImageDraw
            Image.new("RGBA", (408, 408), (0, 0, 0, 0)).save(sys.argv[1] + "/a-blank.png")
            frames = []
            for side in (0, 163, 326):
                frame = Image.new("RGBA", (408, 408), (0, 0, 0, 0))
                if side:
                    ImageDraw.Draw(frame).rectangle([204 - side // 2, 204 - side // 2, 203 + side // 2, 203 + side // 2], fill=(255, 0, 0, 255))
                frames.append(frame)
            frames[0].save(sys.argv[1] + "/b-pop.png", save_all=True, append_images=frames[1:], duration=100, loop=0)
            """
        try #require(try TestProcess.run(["python3", "-c", script, folder.path]) == 0)
        let catalog = folder.appendingPathComponent("Pop.xcstickers")
        let result = try CLITests.runExecutable(["fit", folder.path, "-o", catalog.path, "--level", "1"])
        #expect(result.stdout.contains("[blank]"), "the blank sticker is named: \(result.stdout)")
        let marketing = try #require(MessagesIconSet.required.last)
        let icon = try #require(MessagesIconSet.file(for: marketing, inCatalog: catalog))
        // Pillow's reading of the 1024 x 1024 icon: the square drawn red at the centre, white
        // at the corner (the background), where an icon of the empty frame is white throughout.
        let probe = """
            import sys
            from PIL import Image
            image = Image.open(sys.argv[1]).convert("RGB")
            print(image.getpixel((512, 512)), image.getpixel((4, 4)))
            """
        let colours = try TestProcess.capture(["python3", "-c", probe, icon.path])
        #expect(colours.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "(255, 0, 0) (255, 255, 255)")
    }

    @Test(
        "fit and xcode written into their folder of images read the images again the next time, not what they wrote there",
        .timeLimit(.minutes(3)))
    func outputInsideTheInputFolder() throws {
        let folder = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let art = folder.appendingPathComponent("art")
        try FileManager.default.createDirectory(at: art, withIntermediateDirectories: true)
        // Pillow draws each sticker: a disc of one colour on a clear 408 px square.
        func draw(_ name: String, _ colour: String) throws {
            let script = """
                import sys
                from PIL import Image, ImageDraw
                image = Image.new("RGBA", (408, 408), (0, 0, 0, 0))
                ImageDraw.Draw(image).ellipse([50, 50, 357, 357], fill=tuple(int(c) for c in sys.argv[2].split(",")))
                image.save(sys.argv[1])
                """
            try #require(
                try TestProcess.run(["python3", "-c", script, art.appendingPathComponent(name).path, colour]) == 0)
        }
        /// Pillow's reading of the centre of a catalog's sticker.
        func centre(_ catalog: URL, _ name: String) throws -> String {
            let probe =
                "import sys\nfrom PIL import Image\nprint(Image.open(sys.argv[1]).convert('RGBA').getpixel((204, 204)))"
            let file = try Self.stickerFile(catalog, name)
            return try TestProcess.capture(["python3", "-c", probe, file.path]).stdout
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        try draw("a.png", "100,0,200,255")
        try draw("b.png", "0,0,255,255")
        let catalog = art.appendingPathComponent("Stickers.xcstickers")
        let first = try CLITests.runExecutable([
            "fit", art.path, "-o", catalog.path, "--level", "1", "--label", "b=A blue disc"
        ])
        #expect(first.status == 0, "\(first.stderr)")
        // The artist redraws a sticker and adds one, and runs the same command again.
        try draw("a.png", "0,255,0,255")
        try draw("c.png", "255,0,0,255")
        let again = try CLITests.runExecutable(["fit", art.path, "-o", catalog.path, "--level", "1"])
        #expect(again.status == 0, "\(again.stderr)")
        #expect(!again.stderr.contains("ignored"), "\(again.stderr)")
        let refitted = try PackLoader.load(path: catalog.path)
        #expect(refitted.stickers.map(\.name) == ["a", "b", "c"])
        // The label the first run gave stays with its sticker, read from the image again (a
        // file's name made a label: capitalised).
        #expect(refitted.stickers.map(\.accessibilityLabel) == ["A", "A blue disc", "C"])
        #expect(try centre(catalog, "a") == "(0, 255, 0, 255)")
        #expect(try centre(catalog, "c") == "(255, 0, 0, 255)")

        // The same for a project written into the folder of images.
        let project = ["--name", "Sea", "--bundle-id", "com.example.sea", "--level", "1"]
        try FileManager.default.removeItem(at: catalog)
        let made = try CLITests.runExecutable(["xcode", art.path, "-o", art.path] + project)
        #expect(made.status == 0, "\(made.stderr)")
        try draw("d.png", "255,255,0,255")
        let remade = try CLITests.runExecutable(["xcode", art.path, "-o", art.path] + project)
        #expect(remade.status == 0, "\(remade.stderr)")
        #expect(!remade.stderr.contains("ignored"), "\(remade.stderr)")
        let catalogs = try FileManager.default.contentsOfDirectory(
            atPath: art.appendingPathComponent("Sea StickerPackExtension").path
        ).filter { $0.hasSuffix(".xcstickers") }
        let projectCatalog = art.appendingPathComponent("Sea StickerPackExtension/\(try #require(catalogs.first))")
        #expect(try PackLoader.load(path: projectCatalog.path).stickers.map(\.name) == ["a", "b", "c", "d"])
        #expect(try centre(projectCatalog, "d") == "(255, 255, 0, 255)")
    }

    @Test("the report's line and its frame-rate step print one rate alike (6.25 fps is 6.3 in both)")
    func frameRatePrintedAlike() throws {
        // 12 frames of 80 ms; at 30,000 bytes the search keeps every 2nd: 6 in 0.96 s, 6.25 fps.
        let blob = CLITests.samplePack.appendingPathComponent("01-bouncing-blob.png")
        let result = try CLITests.runExecutable(["fit", blob.path, "--dry-run", "--max-bytes", "30000"])
        let lines = result.stdout.split(separator: "\n").map(String.init)
        func rate(after marker: String, in line: String?) -> String? {
            guard let line, let range = line.range(of: marker) else { return nil }
            return line[range.upperBound...].split(separator: " ").first.map(String.init)
        }
        let head = rate(after: "at 12.5 -> ", in: lines.first { $0.contains("01-bouncing-blob:") })
        let step = rate(after: "(lossy): 12.5 -> ", in: lines.first { $0.contains("frame-rate (lossy)") })
        #expect(head != nil && head == step, "\(result.stdout)")
    }

    @Test("an output named .xcstickers that is a folder of other files is not replaced; an empty one is written")
    func outputThatIsNotACatalog() throws {
        let folder = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let notes = folder.appendingPathComponent("Notes.xcstickers")
        try FileManager.default.createDirectory(at: notes, withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: notes.appendingPathComponent("notes.txt"))
        let still = CLITests.samplePack.appendingPathComponent("05-still-blob.png").path
        let refused = try CLITests.runExecutable(["fit", still, "-o", notes.path])
        #expect(refused.status == 1, "\(refused.stdout)")
        #expect(
            refused.stderr.hasPrefix("Error: \(notes.path): exists and is not a sticker catalog")
                && refused.stderr.contains("notes.txt"), "\(refused.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: notes.path) == ["notes.txt"])
        let empty = folder.appendingPathComponent("Empty.xcstickers")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let written = try CLITests.runExecutable(["fit", still, "-o", empty.path])
        #expect(written.status == 0, "\(written.stdout)")
        #expect(try PackLoader.load(path: empty.path).stickers.count == 1)
        // A catalog that is the current folder is not pulled from under the shell.
        let before = try FileManager.default.contentsOfDirectory(atPath: empty.path).sorted()
        let here = try TestProcess.capture(
            [try CLITests.executable(), "fit", still, "-o", "../Empty.xcstickers"], directory: empty)
        #expect(here.status == 1 && here.stderr.contains("is the current folder or holds it"), "\(here.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: empty.path).sorted() == before)
    }

    @Test(
        "fit or xcode writing over its own catalog writes nothing while it holds files no sticker was read from: a sticker its list leaves out, a second pack, a stray file",
        .timeLimit(.minutes(4)))
    func inPlaceUnreadFilesKeepInput() throws {
        let inputs = try Self.inputs()
        defer { try? FileManager.default.removeItem(at: inputs) }
        let catalog = inputs.appendingPathComponent("Pack.xcstickers")
        let pack = catalog.appendingPathComponent("Sticker Pack.stickerpack")
        let project = inputs.appendingPathComponent("App")
        let app = ["--name", "App", "--bundle-id", "org.example.app"]
        let images = ["dot.png", "still.webp"].map { inputs.appendingPathComponent($0).path }
        try #require(try CLITests.runExecutable(["fit"] + images + ["-o", catalog.path, "--level", "1"]).status == 0)
        try #require(
            try CLITests.runExecutable(["xcode", catalog.path, "--no-fit", "-o", project.path] + app).status == 0)
        let projectCatalog = try #require(
            FileManager.default.enumerator(atPath: project.path)?.compactMap { $0 as? String }
                .first { $0.hasSuffix(".xcstickers") })
        // Each change leaves a file no sticker is read from; the refit in place names it and
        // changes nothing. Of two packs the loader reads the first by name, Second.stickerpack.
        let listing = pack.appendingPathComponent("Contents.json")
        let list = try Data(contentsOf: listing)
        let changes: [(name: String, unread: String, make: () throws -> Void, undo: () throws -> Void)] = [
            (
                "a sticker the list leaves out", "Sticker Pack.stickerpack/still.sticker/still.png",
                {
                    var json = try #require(try JSONSerialization.jsonObject(with: list) as? [String: Any])
                    json["stickers"] = [["filename": "dot.sticker"]]
                    try JSONSerialization.data(withJSONObject: json).write(to: listing)
                }, { try list.write(to: listing) }
            ),
            (
                "a second pack", "Sticker Pack.stickerpack/dot.sticker/dot.png",
                {
                    try FileManager.default.copyItem(
                        at: pack, to: catalog.appendingPathComponent("Second.stickerpack"))
                }, { try FileManager.default.removeItem(at: catalog.appendingPathComponent("Second.stickerpack")) }
            ),
            (
                "a stray file", "notes.txt",
                { try Data("keep me".utf8).write(to: catalog.appendingPathComponent("notes.txt")) },
                { try FileManager.default.removeItem(at: catalog.appendingPathComponent("notes.txt")) }
            )
        ]
        for change in changes {
            try change.make()
            for extra in [[], ["--json"]] {
                let before = try XcodeCommandTests.tree(catalog)
                let result = try CLITests.runExecutable(
                    ["fit", catalog.path, "-o", catalog.path, "--level", "1"] + extra)
                #expect(result.status == 1, "\(change.name): \(result.stdout)")
                let reason =
                    extra.isEmpty
                    ? result.stdout : try Self.report(result.stdout)["nothingWritten"] as? String ?? ""
                #expect(
                    reason.contains("\(catalog.path) holds the inputs and files no sticker was read from")
                        && reason.contains(change.unread), "\(change.name): \(result.stdout)")
                #expect(try XcodeCommandTests.tree(catalog) == before, "\(change.name): the catalog as it was")
            }
            try change.undo()
        }
        // A stray file in the project's catalog: the project over itself is left as it was.
        let stray = project.appendingPathComponent(projectCatalog).appendingPathComponent("notes.txt")
        try Data("keep me".utf8).write(to: stray)
        let before = try XcodeCommandTests.tree(project)
        let result = try CLITests.runExecutable(["xcode", project.path, "-o", project.path, "--level", "1"] + app)
        #expect(result.status == 1 && result.stdout.contains("notes.txt"), "\(result.stdout)")
        #expect(try XcodeCommandTests.tree(project) == before, "the project as it was")
        // With every file read, the refit in place is written.
        let clean = try CLITests.runExecutable(["fit", catalog.path, "-o", catalog.path, "--level", "1"])
        #expect(clean.status == 0 && clean.stdout.contains("wrote \(catalog.path)"), "\(clean.stdout)")
        #expect(try PackLoader.load(path: catalog.path).stickers.map(\.name).sorted() == ["dot", "still"])
    }

    @Test(
        "fit or xcode writing over its own input writes nothing when a sticker fails, so no sticker is lost",
        .timeLimit(.minutes(4)))
    func inPlaceFailureKeepsInput() throws {
        let inputs = try Self.inputs(["--noise"])
        defer { try? FileManager.default.removeItem(at: inputs) }
        let catalog = inputs.appendingPathComponent("Pack.xcstickers")
        let project = inputs.appendingPathComponent("App")
        let images = ["noise.png", "dot.png"].map { inputs.appendingPathComponent($0).path }
        try #require(try CLITests.runExecutable(["fit"] + images + ["-o", catalog.path, "--level", "1"]).status == 0)
        try #require(
            try CLITests.runExecutable([
                "xcode", catalog.path, "--no-fit", "-o", project.path, "--name", "App", "--bundle-id", "org.example.app"
            ]).status == 0)
        #expect(try PackLoader.load(path: catalog.path).stickers.map(\.name).sorted() == ["dot", "noise"])
        // Noise cannot be 1,000 bytes at 618 px; the dot can.
        let tight = ["--max-bytes", "1000", "--size", "large", "--level", "1"]
        // The catalog over itself and the project over itself, each as text and as JSON (no
        // `written`, and why). (The folder of images holding the catalog is read as its images:
        // `outputInsideTheInputFolder`.)
        let app = ["--name", "App", "--bundle-id", "org.example.app"]
        for (command, input, folder, extra) in [
            ("fit", catalog, catalog, [String]()), ("fit", catalog, catalog, ["--json"]),
            ("xcode", project, project, app), ("xcode", project, project, app + ["--json"])
        ] {
            let before = try XcodeCommandTests.tree(folder)
            let result = try CLITests.runExecutable([command, input.path, "-o", folder.path] + tight + extra)
            #expect(result.status == 1, "\(command): \(result.stdout)")
            if extra.contains("--json") {
                let report = try Self.report(result.stdout)
                #expect(report["written"] == nil, "\(command): \(result.stdout)")
                #expect(
                    (report["nothingWritten"] as? String)?.contains("\(folder.path) holds the inputs") == true,
                    "\(result.stdout)")
            } else {
                #expect(
                    result.stdout.contains("nothing written: ")
                        && result.stdout.contains("\(folder.path) holds the inputs"),
                    "\(result.stdout)")
            }
            #expect(try XcodeCommandTests.tree(folder) == before, "\(command) left its input as it was")
            #expect(
                try FileManager.default.contentsOfDirectory(atPath: inputs.path).filter { $0.hasPrefix(".") }.isEmpty,
                "no staging left")
        }
        // Written elsewhere, the sticker that fits is written as before.
        let elsewhere = inputs.appendingPathComponent("Other.xcstickers")
        let written = try CLITests.runExecutable(["fit", catalog.path, "-o", elsewhere.path, "--json"] + tight)
        #expect(written.status == 1)
        let report = try Self.report(written.stdout)
        #expect(report["written"] as? String == elsewhere.path && report["nothingWritten"] == nil)
        #expect(try PackLoader.load(path: elsewhere.path).stickers.map(\.name) == ["dot"])
        // A project written into the folder that holds the images replaces none of them: written.
        let beside = try CLITests.runExecutable(
            ["xcode"] + images + ["-o", inputs.path, "--name", "Beside", "--bundle-id", "org.example.beside"] + tight)
        #expect(beside.status == 1 && !beside.stdout.contains("nothing written"), "\(beside.stdout)")
        #expect(
            try PackLoader.load(path: inputs.appendingPathComponent("Beside.xcodeproj").path).stickers.map(\.name) == [
                "dot"
            ])
    }

    // Five minutes: drawing the 60-frame 618 px input alone takes about 18 s on a loaded 2-core machine.
    @Test(
        "a sticker whose frames would take more memory than allowed is refused before decoding, alone",
        .timeLimit(.minutes(5)))
    func memoryBound() throws {
        let inputs = try Self.inputs(["--heavy"])
        defer { try? FileManager.default.removeItem(at: inputs) }
        let catalog = inputs.appendingPathComponent("Bounded.xcstickers")
        // 60 frames of 618 x 618 take 91,661,760 bytes decoded.
        let result = try CLITests.runExecutable([
            "fit", inputs.appendingPathComponent("heavy.png").path, inputs.appendingPathComponent("dot.png").path,
            "-o", catalog.path, "--max-decoded", "64M", "--json"
        ])
        #expect(result.status == 1)
        let failure = try #require(Self.entries(try Self.report(result.stdout))["heavy"]?["failure"] as? String)
        #expect(failure.contains("91661760") && failure.contains("67108864"), "\(failure)")
        #expect(try PackLoader.load(path: catalog.path).stickers.map(\.name) == ["dot"])
    }

    @Test(
        "--allow-smaller-size: a sticker too heavy for its size is made for a smaller one, and says so",
        .timeLimit(.minutes(3)))
    func smallerSize() throws {
        let inputs = try Self.inputs(["--noise"])
        defer { try? FileManager.default.removeItem(at: inputs) }
        let catalog = inputs.appendingPathComponent("Smaller.xcstickers")
        // Noise barely compresses: about a byte a pixel once on a palette, so 120,000 bytes
        // holds 300 x 300 (small) but not 408 x 408 or 618 x 618.
        let arguments = [
            "fit", inputs.appendingPathComponent("noise.png").path, "-o", catalog.path, "--size", "large",
            "--max-bytes", "120000", "--json"
        ]
        let refused = try CLITests.runExecutable(arguments)
        #expect(refused.status == 1)
        #expect(
            (Self.entries(try Self.report(refused.stdout))["noise"]?["failure"] as? String)?.contains(
                "--allow-smaller-size") == true)
        let allowed = try CLITests.runExecutable(arguments + ["--allow-smaller-size"])
        #expect(allowed.status == 0, "\(allowed.stdout)")
        let entry = try #require(Self.entries(try Self.report(allowed.stdout))["noise"])
        // The largest smaller size it fits at: regular (408 px) or small (300 px).
        let size = try #require(entry["size"] as? String)
        let side = try #require(["regular": 408, "small": 300][size], "made for \(size)")
        let kinds = (entry["steps"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
        #expect(kinds.first == "smaller-size")
        let decoder = try AnimationDecoder(bytes: [UInt8](Data(contentsOf: Self.stickerFile(catalog, "noise"))))
        #expect(decoder.info.width == side && decoder.info.height == side)
    }

    @Test("a catalog in: sequences stay sequences, labels and order are kept", .timeLimit(.minutes(3)))
    func catalogIn() throws {
        let folder = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = CLITests.repoRoot.appendingPathComponent("corpus/Sample.xcstickers")
        let catalog = folder.appendingPathComponent("Copy.xcstickers")
        let result = try CLITests.runExecutable(["fit", source.path, "-o", catalog.path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let before = try PackLoader.load(path: source.path)
        let after = try PackLoader.load(path: catalog.path)
        #expect(after.stickers.map(\.name) == before.stickers.map(\.name))
        #expect(after.stickers.map(\.accessibilityLabel) == before.stickers.map(\.accessibilityLabel))
        #expect(after.declaredGridSize == before.declaredGridSize)
        for (old, new) in zip(before.stickers, after.stickers) {
            switch (old.source, new.source) {
            case (.sequence(let a), .sequence(let b)):
                #expect(b.frames.count == a.frames.count)
                #expect(b.duration == a.duration && b.durationType == a.durationType && b.repetitions == a.repetitions)
            case (.file, .file):
                break
            default:
                Issue.record("\(old.name) changed kind")
            }
        }
        #expect(try CLITests.runExecutable(["validate", catalog.path]).status == 0)
    }

    @Test("the icon set has every size, exact and opaque, from the first sticker or --icon", .timeLimit(.minutes(3)))
    func iconSet() throws {
        let inputs = try Self.inputs()
        defer { try? FileManager.default.removeItem(at: inputs) }
        for extra in [
            [], ["--icon", inputs.appendingPathComponent("too-small.png").path, "--icon-background", "#102030"]
        ] {
            let catalog = inputs.appendingPathComponent("Icons.xcstickers")
            let result = try CLITests.runExecutable(
                ["fit", inputs.appendingPathComponent("dot.png").path, "-o", catalog.path] + extra)
            #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
            #expect(MessagesIconSet.problems(inCatalog: catalog).isEmpty)
            let set = catalog.appendingPathComponent("iMessage App Icon.stickersiconset")
            let pngs = try FileManager.default.contentsOfDirectory(atPath: set.path).filter { $0.hasSuffix(".png") }
            #expect(pngs.count == MessagesIconSet.required.count)
            for name in pngs {
                let frame = try AnimationDecoder(bytes: [UInt8](Data(contentsOf: set.appendingPathComponent(name))))
                    .frame(at: 0)
                #expect(
                    stride(from: 3, to: frame.pixels.count, by: 4).allSatisfy { frame.pixels[$0] == 255 },
                    "\(name) is opaque")
                if extra.isEmpty {
                    #expect(
                        frame.pixel(x: 0, y: 0) == PremultipliedRGBA(r: 255, g: 255, b: 255, a: 255), "white background"
                    )
                    // The dot's visible square (not its transparent margins) fills 80% of the
                    // icon's height: red from 15% to 85% of the way down the middle column.
                    let column = frame.width / 2
                    for fraction in [0.15, 0.5, 0.85] {
                        let pixel = frame.pixel(x: column, y: Int(Double(frame.height) * fraction))
                        #expect(pixel.r > 200 && pixel.g < 60, "\(name) at \(fraction): \(pixel)")
                    }
                } else {
                    // The artwork covers the icon; its transparent margins show the background.
                    #expect(frame.pixel(x: 0, y: 0) == PremultipliedRGBA(r: 0x10, g: 0x20, b: 0x30, a: 255), "\(name)")
                }
            }
        }
        let bad = try CLITests.runExecutable([
            "fit", inputs.appendingPathComponent("dot.png").path, "-o",
            inputs.appendingPathComponent("X.xcstickers").path,
            "--icon-background", "transparent"
        ])
        #expect(bad.status != 0 && bad.stderr.contains("opaque"))
        #expect(!FileManager.default.fileExists(atPath: inputs.appendingPathComponent("X.xcstickers").path))
        // An --icon with nothing drawn (every pixel transparent, by Pillow) is refused, nothing written.
        let blank = inputs.appendingPathComponent("blank.png")
        try Python.run(
            "import sys\nfrom PIL import Image\nImage.new('RGBA', (408, 408), (255, 0, 0, 0)).save(sys.argv[1])",
            [blank.path])
        let blankIcon = try CLITests.runExecutable([
            "fit", inputs.appendingPathComponent("dot.png").path, "-o",
            inputs.appendingPathComponent("X.xcstickers").path, "--icon", blank.path
        ])
        #expect(blankIcon.status == 1 && blankIcon.stderr.contains("every pixel is transparent"), "\(blankIcon.stderr)")
        #expect(!FileManager.default.fileExists(atPath: inputs.appendingPathComponent("X.xcstickers").path))
    }

    @Test(
        "--lossless that cannot fit names the size of the file the strongest level writes: that budget makes it, one byte less does not"
    )
    func losslessFailureFigure() throws {
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let orbit = folder.appendingPathComponent("orbit.png")
        // Pillow's APNG: a disc going round, its colour changing, 12 frames of 408 px.
        try Python.run(
            """
            import sys, math
            from PIL import Image, ImageDraw
            frames = []
            for i in range(12):
                image = Image.new("RGBA", (408, 408), (0, 0, 0, 0))
                a = 2 * math.pi * i / 12
                x, y, r = 204 + 102 * math.cos(a), 204 + 102 * math.sin(a), 68
                ImageDraw.Draw(image).ellipse([x - r, y - r, x + r, y + r], fill=(255, int(100 + 100 * math.sin(a)), 50, 255))
                frames.append(image)
            frames[0].save(sys.argv[1], save_all=True, append_images=frames[1:], duration=80, loop=0)
            """, [orbit.path])
        func fit(_ budget: Int) throws -> (fitted: Bool, bytes: Int) {
            let result = try CLITests.runExecutable([
                "fit", orbit.path, "--dry-run", "--lossless", "--max-bytes", String(budget), "--json"
            ])
            let entry = try #require(Self.entries(try Self.report(result.stdout))["orbit"], "\(result.stderr)")
            return (entry["fitted"] as? Bool ?? false, entry["bytesAfter"] as? Int ?? 0)
        }
        let failed = try fit(1000)
        #expect(!failed.fitted && failed.bytes > 1000)
        #expect(try fit(failed.bytes).fitted, "the named size is reached: \(failed.bytes) bytes")
        #expect(try !fit(failed.bytes - 1).fitted, "and is the smallest: \(failed.bytes - 1) bytes does not fit")
    }

    @Test(
        "a still that cannot fit names the smallest file of either scaling: that budget makes it, one byte less does not (Pillow's outlined disc, 3,000 bytes)"
    )
    func lossyFailureFigure() throws {
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let disc = folder.appendingPathComponent("disc.png")
        // A 512 px green disc outlined in black: scaled to 408 px, the softer filter's 16
        // colours make a smaller file than Lanczos's 16 colours do.
        try Python.run(
            """
            import sys
            from PIL import Image, ImageDraw
            image = Image.new("RGBA", (512, 512), (0, 0, 0, 0))
            ImageDraw.Draw(image).ellipse([40, 40, 472, 472], fill=(0, 200, 100, 255), outline=(0, 0, 0, 255), width=10)
            image.save(sys.argv[1])
            """, [disc.path])
        func fit(_ budget: Int) throws -> (fitted: Bool, bytes: Int) {
            let result = try CLITests.runExecutable([
                "fit", disc.path, "--dry-run", "--max-bytes", String(budget), "--json", "--min-psnr", "0"
            ])
            let entry = try #require(Self.entries(try Self.report(result.stdout))["disc"], "\(result.stderr)")
            return (entry["fitted"] as? Bool ?? false, entry["bytesAfter"] as? Int ?? 0)
        }
        let failed = try fit(3000)
        #expect(!failed.fitted && failed.bytes > 3000)
        #expect(try fit(failed.bytes).fitted, "the named size is reached: \(failed.bytes) bytes")
        #expect(try !fit(failed.bytes - 1).fitted, "and is the smallest: \(failed.bytes - 1) bytes does not fit")
    }

    @Test("a catalog inside another catalog is refused before fitting (Xcode reads it as part of the outer one)")
    func catalogInsideCatalog() throws {
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let blob = CLITests.samplePack.appendingPathComponent("05-still-blob.png").path
        let outer = folder.appendingPathComponent("A.xcstickers")
        #expect(try CLITests.runExecutable(["fit", blob, "-o", outer.path, "--level", "1"]).status == 0)
        let inner = outer.appendingPathComponent("inner.xcstickers")
        let refused = try CLITests.runExecutable(["fit", blob, "-o", inner.path, "--level", "1", "--progress", "lines"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("is inside the sticker catalog"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("fitting"), "refused before fitting: \(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: inner.path))
    }

    @Test("a sticker that cannot be made takes no name: wave.png, after an unreadable wave.gif, is written as wave")
    func failedStickerTakesNoName() throws {
        let folder = CLITests.temporaryDirectory()
        let pack = folder.appendingPathComponent("pack")
        try FileManager.default.createDirectory(at: pack, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // wave.gif sorts first and is empty: it cannot be made.
        try Data().write(to: pack.appendingPathComponent("wave.gif"))
        try FileManager.default.copyItem(
            at: CLITests.samplePack.appendingPathComponent("05-still-blob.png"),
            to: pack.appendingPathComponent("wave.png"))
        let catalog = folder.appendingPathComponent("W.xcstickers")
        let result = try CLITests.runExecutable(["fit", pack.path, "-o", catalog.path, "--progress", "none"])
        #expect(result.status == 1, "one sticker cannot be made: \(result.stdout)")
        let stickers = try FileManager.default.contentsOfDirectory(
            atPath: catalog.appendingPathComponent("Sticker Pack.stickerpack").path
        ).filter { $0.hasSuffix(".sticker") }
        #expect(stickers == ["wave.sticker"], "\(stickers)")
        #expect(!result.stdout.contains("rename"), "\(result.stdout)")
        // The report tells the two apart: the one not made by its file.
        #expect(result.stdout.contains("FAIL wave.gif:") && result.stdout.contains("ok   wave:"), "\(result.stdout)")
    }

    @Test("an output that cannot be written is named before any sticker is fitted, and nothing is left")
    func unwritableOutputFirst() throws {
        let inputs = try Self.inputs()
        defer { try? FileManager.default.removeItem(at: inputs) }
        // A regular file where the catalog's folder would be: no folder can be made in it.
        let file = inputs.appendingPathComponent("notes.txt")
        try Data("notes".utf8).write(to: file)
        let result = try CLITests.runExecutable([
            "fit", inputs.appendingPathComponent("dot.png").path, "-o",
            file.appendingPathComponent("S.xcstickers").path,
            "--progress", "lines"
        ])
        #expect(
            result.status == 1 && result.stderr.contains("cannot create the folder it is staged in"), "\(result.stderr)"
        )
        #expect(!result.stderr.contains("fitting"), "no sticker fitted first: \(result.stderr)")
        #expect(try Data(contentsOf: file) == Data("notes".utf8))
        let hidden = try FileManager.default.contentsOfDirectory(atPath: inputs.path).filter { $0.hasPrefix(".") }
        #expect(hidden.isEmpty, "\(hidden)")
        // The folders made to stage a catalog that is never written are removed again: an input
        // that does not exist, and one that cannot be fitted (an empty file).
        try Data().write(to: inputs.appendingPathComponent("empty.png"))
        for input in ["nothere.png", "empty.png"] {
            let missing = try CLITests.runExecutable([
                "fit", inputs.appendingPathComponent(input).path, "-o",
                inputs.appendingPathComponent("new/deep/S.xcstickers").path
            ])
            #expect(missing.status == 1, "\(input): \(missing.stderr)")
            #expect(!FileManager.default.fileExists(atPath: inputs.appendingPathComponent("new").path), "\(input)")
        }
    }

    @Test(
        "the catalog is replaced whole; Ctrl-C while fitting leaves the earlier one untouched", .timeLimit(.minutes(3)))
    func atomic() throws {
        let inputs = try Self.inputs()
        defer { try? FileManager.default.removeItem(at: inputs) }
        let catalog = inputs.appendingPathComponent("Pack.xcstickers")
        let dot = inputs.appendingPathComponent("dot.png").path
        #expect(
            try CLITests.runExecutable(["fit", inputs.appendingPathComponent("too-small.png").path, "-o", catalog.path])
                .status == 0)
        try Data("stale".utf8).write(to: catalog.appendingPathComponent("stale.txt"))
        #expect(try CLITests.runExecutable(["fit", dot, "-o", catalog.path]).status == 0)
        #expect(
            !FileManager.default.fileExists(atPath: catalog.appendingPathComponent("stale.txt").path),
            "replaced as a whole")
        #expect(try PackLoader.load(path: catalog.path).stickers.map(\.name) == ["dot"])
        let before = try snapshot(catalog)

        // The second input is a FIFO nobody writes to: reading it blocks the fit after the
        // first sticker, whose progress line is the event the test waits for.
        let fifo = inputs.appendingPathComponent("waits.png").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let (pid, progress) = try PreviewTests.spawnWithStderrPipe([
            try PreviewTests.executable(), "fit", dot, fifo, "-o", catalog.path,
            "--threads", "1", "--progress", "lines"
        ])
        defer { close(progress) }
        #expect(PreviewTests.readLine(from: progress, containing: "fitting 1/2") != nil)
        kill(pid, SIGINT)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        #expect(status & 0x7F == SIGINT, "ended by the signal")
        #expect(try snapshot(catalog) == before)
        let siblings = try FileManager.default.contentsOfDirectory(atPath: inputs.path).filter { $0.hasPrefix(".") }
        #expect(siblings.isEmpty, "no staging folder left: \(siblings)")
    }

    /// Every file of a folder, by relative path, with its bytes.
    private func snapshot(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        while let path = enumerator?.nextObject() as? String {
            var isDirectory: ObjCBool = false
            let url = folder.appendingPathComponent(path)
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
                files[path] = try Data(contentsOf: url)
            }
        }
        return files
    }

    @Test(
        "a file's name with an escape and a right-to-left override: its folder has '-' for each, its VoiceOver label neither, and the report says so"
    )
    func controlsInAName() throws {
        let folder = CLITests.temporaryDirectory()
        let pack = folder.appendingPathComponent("pack")
        try FileManager.default.createDirectory(at: pack, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(
            at: CLITests.samplePack.appendingPathComponent("05-still-blob.png"),
            to: pack.appendingPathComponent("esc\u{1B}[31mred\u{202E}gnp.png"))
        let catalog = folder.appendingPathComponent("C.xcstickers")
        let result = try CLITests.runExecutable(["fit", pack.path, "-o", catalog.path, "--json", "--progress", "none"])
        #expect(result.status == 0, "\(result.stderr)")
        let loaded = try PackLoader.load(path: catalog.path)
        #expect(loaded.stickers.map(\.name) == ["esc-[31mred-gnp"])
        // The label made from the name (first letter capitalised), its controls left out.
        #expect(loaded.stickers.map(\.accessibilityLabel) == ["Esc[31mredgnp"])
        let steps =
            (try Self.report(result.stdout)["stickers"] as? [[String: Any]])?.first?["steps"] as? [[String: Any]]
        #expect(
            steps?.contains { $0["detail"] as? String == "VoiceOver label: 2 control characters left out" } == true,
            "\(steps ?? [])")
    }

    @Test(
        "--json prints a report when the run stops before fitting (no such input, an empty folder, a catalog inside a catalog), its error as stderr names it, exit 1; xcode --json too"
    )
    func jsonWhenStoppedEarly() throws {
        let folder = CLITests.temporaryDirectory()
        let empty = folder.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let still = CLITests.samplePack.appendingPathComponent("05-still-blob.png").path
        let inner = folder.appendingPathComponent("A.xcstickers/inner.xcstickers").path
        try FileManager.default.createDirectory(
            atPath: folder.appendingPathComponent("A.xcstickers").path, withIntermediateDirectories: true)
        try Data("{}".utf8).write(to: folder.appendingPathComponent("A.xcstickers/Contents.json"))
        let out = folder.appendingPathComponent("Out.xcstickers").path
        for (arguments, error) in [
            (["fit", folder.appendingPathComponent("missing").path, "-o", out], "missing: no such file or folder"),
            (["fit", empty.path, "-o", out], "empty: not a sticker pack (no image files"),
            (["fit", still, "-o", inner], "is inside the sticker catalog"),
            (
                [
                    "xcode", empty.path, "-o", folder.appendingPathComponent("App").path, "--name", "A", "--bundle-id",
                    "com.example.a"
                ],
                "empty: not a sticker pack (no image files"
            )
        ] {
            let result = try CLITests.runExecutable(arguments + ["--json", "--progress", "none"])
            #expect(result.status == 1, "\(arguments)")
            let report = try FitCommandTests.report(result.stdout)
            let message = try #require(report["error"] as? String, "\(arguments): \(result.stdout)")
            #expect(message.contains(error) && result.stderr.contains(message), "\(message) / \(result.stderr)")
            #expect((report["stickers"] as? [Any])?.isEmpty == true && report["written"] == nil)
            #expect(report["nothingWritten"] as? String == message)
        }
        // xcode --no-fit prints validate's report: failed, the reason its one finding.
        let noFit = try CLITests.runExecutable([
            "xcode", empty.path, "--no-fit", "-o", folder.appendingPathComponent("App").path, "--name", "A",
            "--bundle-id", "com.example.a", "--json"
        ])
        #expect(noFit.status == 1)
        let report = try FitCommandTests.report(noFit.stdout)
        let findings = report["findings"] as? [[String: Any]] ?? []
        #expect(report["passed"] as? Bool == false && findings.count == 1, "\(noFit.stdout)")
        #expect(
            (findings.first?["message"] as? String).map { noFit.stderr.contains($0) } == true,
            "\(findings) / \(noFit.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("App").path))
    }
}

/// What `stickers fit` says of loss, as a user or CI meets it: the warning in the report, its
/// JSON, `validate` of the catalog written; `--strict` and the option it names, run as given.
@Suite("stickers fit: loss is never silent", .timeLimit(.minutes(3)))
struct FitLossCommandTests {
    /// A 300 px grainy clip, 24 frames at 24 fps, that fits 90,000 bytes only at a low rate.
    static func clip(in folder: URL) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let side = 300
        let frames = GrainyClip.frames(side: side, frames: 24, grain: 12, seed: 11)
        let animation = frames.map {
            PNGEncoder.AnimationFrame(pixels: $0, delay: FrameDelay(numerator: 41, denominator: 1000))
        }
        let url = folder.appendingPathComponent("clip.png")
        try Data(PNGEncoder.encodeAnimation(animation, width: side, height: side, plays: 0)).write(to: url)
        return url
    }

    static let common = ["--size", "small", "--max-bytes", "90000", "--level", "6", "--progress", "none"]

    @Test(
        "made with visible loss: a warning in the report and its JSON, and validate of the catalog warns [fit-loss] with the same figures"
    )
    func warned() throws {
        let folder = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try Self.clip(in: folder)
        let catalog = folder.appendingPathComponent("Lossy.xcstickers")
        let text = try CLITests.runExecutable(["fit", input.path, "-o", catalog.path] + Self.common)
        #expect(text.status == 0, "\(text.stdout)\(text.stderr)")
        #expect(text.stdout.contains("warning: made with visible loss (under 30 dB or SSIM 0.90)"), "\(text.stdout)")
        #expect(text.stdout.contains("1 with loss warnings (above; --strict makes them errors)"), "\(text.stdout)")

        let json = try CLITests.runExecutable(["fit", input.path, "--dry-run", "--json"] + Self.common)
        let entry = try #require(FitCommandTests.entries(try FitCommandTests.report(json.stdout))["clip"])
        let psnr = try #require(entry["psnr"] as? Double)
        let warning = try #require(entry["warning"] as? String)
        #expect(psnr < 30 && warning.contains(String(format: "%.1f dB", psnr)), "\(warning)")
        let givenUp = try #require(entry["givenUp"] as? [String])
        #expect(givenUp.contains { $0.hasPrefix("frame rate 24.4 -> ") }, "\(givenUp)")

        // The catalog records the loss; validate reads it back and warns, exit 0 (a warning).
        let validate = try CLITests.runExecutable(["validate", catalog.path])
        #expect(validate.status == 0)
        #expect(validate.stdout.contains("warning [fit-loss] clip: made with visible loss"), "\(validate.stdout)")
        #expect(
            validate.stdout.contains(String(format: "%.1f dB", psnr))
                && validate.stdout.contains("frame rate 24.4 -> "), "\(validate.stdout)")
    }

    @Test(
        "--min-fps from the command line: above what the clip needs it is refused naming the --min-fps that makes it; run with that, made at that rate or more"
    )
    func minimumRate() throws {
        let folder = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try Self.clip(in: folder)
        let refused = try CLITests.runExecutable(
            ["fit", input.path, "--dry-run", "--json", "--min-fps", "12"] + Self.common)
        #expect(refused.status == 1)
        let failure = try #require(
            FitCommandTests.entries(try FitCommandTests.report(refused.stdout))["clip"]?["failure"] as? String)
        let match = try #require(
            failure.firstMatch(of: /made with --min-fps ([0-9.]+): ([0-9,]+) bytes, ([0-9.]+) dB/), "\(failure)")
        let made = try CLITests.runExecutable(
            ["fit", input.path, "--dry-run", "--json", "--min-fps", String(match.1)] + Self.common)
        #expect(made.status == 0, "\(made.stdout)")
        let entry = try #require(FitCommandTests.entries(try FitCommandTests.report(made.stdout))["clip"])
        let rate = try #require(Double(String(match.1)))
        #expect((entry["fpsAfter"] as? Double ?? 0) >= rate && rate < 12)
        #expect(String(groupingThousands: entry["bytesAfter"] as? Int ?? -1) == String(match.2))
        #expect(String(format: "%.1f", entry["psnr"] as? Double ?? -1) == String(match.3))
    }

    @Test(
        "review: the sticker's card says what fit would give up, from the fit dry run, with the same figures as fit's report"
    )
    func reviewCard() throws {
        let folder = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try Self.clip(in: folder.appendingPathComponent("pack"))
        // review fits to the pack's size (regular, 408 px), so fit is asked the same.
        let json = try CLITests.runExecutable([
            "fit", input.path, "--dry-run", "--json", "--max-bytes", "150000", "--level", "6",
            "--progress", "none"
        ])
        let warning = try #require(
            FitCommandTests.entries(try FitCommandTests.report(json.stdout))["clip"]?["warning"] as? String)
        let out = folder.appendingPathComponent("review")
        let review = try CLITests.runExecutable([
            "review", input.deletingLastPathComponent().path, "-o", out.path, "--max-bytes", "150000",
            "--fit-level", "6", "--progress", "none"
        ])
        // The clip itself is 1.5 MB, over Apple's 500 KB: an error, so exit 1 after the page is written.
        #expect(review.status == 1, "\(review.stdout)\(review.stderr)")
        let page = try String(contentsOf: out.appendingPathComponent("index.html"), encoding: .utf8)
        // The page escapes the text as HTML: compare with the warning escaped the same way.
        let escaped = warning.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
        #expect(page.contains("<p class=\"warning\">Loss: " + escaped + "</p>"), "the card lacks: \(escaped)")
    }

    @Test("--strict: exit 1, nothing written, and the option it names, run as given, makes the file it names")
    func strict() throws {
        let folder = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = try Self.clip(in: folder)
        let catalog = folder.appendingPathComponent("Strict.xcstickers")
        let refused = try CLITests.runExecutable(
            ["fit", input.path, "-o", catalog.path, "--strict", "--json"] + Self.common)
        #expect(refused.status == 1)
        #expect(!FileManager.default.fileExists(atPath: catalog.path))
        let failure = try #require(
            FitCommandTests.entries(try FitCommandTests.report(refused.stdout))["clip"]?["failure"] as? String)
        let match = try #require(
            failure.firstMatch(of: /made without --strict: ([0-9,]+) bytes, ([0-9.]+) dB/), "\(failure)")
        // Run without --strict, as the message says: the figures of that file.
        let made = try CLITests.runExecutable(["fit", input.path, "-o", catalog.path, "--json"] + Self.common)
        #expect(made.status == 0)
        let entry = try #require(FitCommandTests.entries(try FitCommandTests.report(made.stdout))["clip"])
        #expect(String(groupingThousands: entry["bytesAfter"] as? Int ?? -1) == String(match.1))
        #expect(String(format: "%.1f", entry["psnr"] as? Double ?? -1) == String(match.2))
        #expect(try Data(contentsOf: FitCommandTests.stickerFile(catalog, "clip")).count == entry["bytesAfter"] as? Int)
    }
}

@Suite("stickers fit: a clip whose frames are over the decoding limit", .timeLimit(.minutes(3)))
struct FitDecodingLimitTests {
    /// ffmpeg's testsrc2 at 10 fps, `size` pixels, `seconds` long, as a GIF of 32 colours.
    static func testClip(_ url: URL, size: String, seconds: Int) throws -> URL {
        let made = try TestProcess.run([
            "ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=\(size):rate=10:duration=\(seconds)",
            "-vf", "split[a][b];[a]palettegen=max_colors=32[p];[b][p]paletteuse=dither=none", url.path
        ])
        try #require(made == 0)
        return url
    }

    @Test(
        "a 10 s clip over --max-decoded is refused naming the limit and --max-duration 3, proven; --max-duration 3 decodes only its first 3 s and makes it"
    )
    func longClipOverTheLimit() throws {
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // 100 frames of 320 x 240 at 10 fps: 100 x 320 x 240 x 4 = 30,720,000 bytes decoded, over
        // 16 MiB (16,777,216); its first 3 s, 30 frames, take 9,216,000, and made small, 30
        // frames of 300 x 300 take 10,800,000.
        let clip = try Self.testClip(folder.appendingPathComponent("long.gif"), size: "320x240", seconds: 10)
        let limit = ["--max-decoded", "16M", "--size", "small", "--level", "1", "--progress", "none"]
        let catalog = folder.appendingPathComponent("Long.xcstickers")
        let refused = try CLITests.runExecutable(["fit", clip.path, "-o", catalog.path, "--json"] + limit)
        #expect(refused.status == 1)
        let failure = try #require(
            FitCommandTests.entries(try FitCommandTests.report(refused.stdout))["long"]?["failure"] as? String,
            "\(refused.stdout)")
        #expect(
            failure.contains("decoded frames would take at least 30720000 bytes, more than the limit of 16777216"),
            "\(failure)")
        let proof = try #require(
            failure.firstMatch(of: /made with --max-duration 3 \(the first 3 s at their own speed\): ([0-9,]+) bytes/),
            "\(failure)")
        // Run as the message says: the file it names, the first 3 s of the clip.
        let cut = try CLITests.runExecutable(
            ["fit", clip.path, "-o", catalog.path, "--json", "--max-duration", "3"] + limit)
        #expect(cut.status == 0, "\(cut.stdout)\(cut.stderr)")
        let entry = try #require(FitCommandTests.entries(try FitCommandTests.report(cut.stdout))["long"])
        #expect(String(groupingThousands: entry["bytesAfter"] as? Int ?? -1) == String(proof.1))
        let durations = try Pillow.animation(FitCommandTests.stickerFile(catalog, "long")).durations
        #expect(abs(durations.reduce(0, +) - 3000) <= 1, "\(durations)")
    }

    @Test(
        "frames over fit's own 1 GiB are refused naming that cap, which --max-decoded does not raise; under a lower --max-decoded, naming that option"
    )
    func clipOverFitsOwnCap() throws {
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // 17 frames of 4096 x 4096, red and blue by turns: 17 x 4096 x 4096 x 4 = 1,140,850,688
        // bytes decoded, over 1 GiB (1,073,741,824).
        let clip = folder.appendingPathComponent("huge.gif")
        let script = """
            import sys
            from PIL import Image
            frames = [Image.new("P", (4096, 4096), i % 2) for i in range(17)]
            for frame in frames:
                frame.putpalette([255, 0, 0, 0, 0, 255] + [0] * 762)
            frames[0].save(sys.argv[1], save_all=True, append_images=frames[1:], duration=100, loop=0)
            """
        try #require(try TestProcess.run(["python3", "-c", script, clip.path]) == 0)
        let common = ["--dry-run", "--json", "--lossless", "--progress", "none"]
        for raised in [[], ["--max-decoded", "2G"]] {
            let refused = try CLITests.runExecutable(["fit", clip.path] + common + raised)
            #expect(refused.status == 1)
            let failure = try #require(
                FitCommandTests.entries(try FitCommandTests.report(refused.stdout))["huge"]?["failure"] as? String)
            #expect(
                failure.hasSuffix(
                    "the frames fitted would take at least 1140850688 bytes decoded, more than the 1073741824 fit decodes for a sticker (whatever --max-decoded says; --max-duration fits fewer)"
                ), "\(raised): \(failure)")
        }
        let lower = try CLITests.runExecutable(["fit", clip.path] + common + ["--max-decoded", "512M"])
        let failure = try #require(
            FitCommandTests.entries(try FitCommandTests.report(lower.stdout))["huge"]?["failure"] as? String)
        #expect(failure.hasSuffix("more than the limit of 536870912 (--max-decoded)"), "\(failure)")
    }

    @Test(
        "a 618 px clip over the limit: made large from its first 3 s (its side is read though its frames are over); --lossless names no --max-duration"
    )
    func largeClipOverTheLimit() throws {
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // 50 frames of 618 x 618: 76,384,800 bytes, over 64 MiB; the first 3 s, 30 frames,
        // 45,830,880 bytes.
        let clip = try Self.testClip(folder.appendingPathComponent("wide.gif"), size: "618x618", seconds: 5)
        let common = ["--dry-run", "--json", "--max-decoded", "64M", "--level", "1", "--progress", "none"]
        let cut = try CLITests.runExecutable(["fit", clip.path, "--max-duration", "3"] + common)
        #expect(cut.status == 0, "\(cut.stdout)\(cut.stderr)")
        #expect(try FitCommandTests.report(cut.stdout)["size"] as? String == "large", "\(cut.stdout)")
        // --lossless keeps every frame, so it cannot take --max-duration: the refusal names none.
        let lossless = try CLITests.runExecutable(["fit", clip.path, "--lossless"] + common)
        #expect(lossless.status == 1)
        let failure = try #require(
            FitCommandTests.entries(try FitCommandTests.report(lossless.stdout))["wide"]?["failure"] as? String)
        #expect(
            failure.hasSuffix(
                "decoded frames would take at least 76384800 bytes, more than the limit of 67108864 (--max-decoded)"),
            "\(failure)")
    }
}
