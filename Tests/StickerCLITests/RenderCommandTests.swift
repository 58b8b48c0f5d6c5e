import AnimationCodec
import Foundation
import TestSupport
import Testing

/// `validate`, `render`, `sheet` and `filmstrip` as a user runs them: the built executable,
/// exit statuses, stderr, and outputs that are whole or absent.
@Suite("stickers validate / render / sheet / filmstrip", .timeLimit(.minutes(3)))
struct RenderCommandTests {
    static let catalog = CLITests.repoRoot.appendingPathComponent("corpus/Sample.xcstickers")

    @Test("validate: the sample pack passes with its known warnings; --json parses")
    func validateSample() throws {
        let text = try CLITests.runExecutable(["validate", CLITests.samplePack.path])
        #expect(text.status == 0)
        #expect(
            text.stdout.contains("warning [mixed-sizes]") && text.stdout.contains("warning [transparency] 06-blob-card")
        )
        let json = try CLITests.runExecutable(["validate", Self.catalog.path, "--json"])
        #expect(json.status == 0)
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        #expect(object["gridSize"] as? String == "regular" && object["passed"] as? Bool == true)
        #expect((object["stickers"] as! [[String: Any]]).map { $0["name"] as! String } == ["Heart", "Star"])
    }

    @Test("validate: an error exits 1 and names the sticker, rule and value")
    func validateError() throws {
        let folder = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let pixels = [UInt8](repeating: 255, count: 100 * 100 * 4)
        try Data(PNGEncoder.encode(premultiplied: pixels, width: 100, height: 100)).write(
            to: folder.appendingPathComponent("tiny.png"))
        let result = try CLITests.runExecutable(["validate", folder.path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("error [pixel-size] tiny: 100x100 px"))
        #expect(result.stdout.contains("FAILED: 1 error,"))
    }

    @Test("render: compact PNG of the sample pack at the documented size; PPM and APNG too")
    func renderSample() throws {
        let folder = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let png = folder.appendingPathComponent("c.png").path
        let compact = try CLITests.runExecutable(["render", CLITests.samplePack.path, "--scale", "1", "-o", png])
        #expect(compact.status == 0, "\(compact.stderr)")
        let decoded = try AnimationDecoder(bytes: [UInt8](Data(contentsOf: URL(fileURLWithPath: png))))
        #expect(decoded.info.width == 393 && decoded.info.height == 213)  // iPhone 15 strip at 1x

        let ppm = folder.appendingPathComponent("e.ppm").path
        let expanded = try CLITests.runExecutable([
            "render", CLITests.samplePack.path, "--style", "expanded", "--device", "iphone-se-1",
            "--scale", "2", "--background", "#102030", "--at", "0.5s", "-o", ppm
        ])
        #expect(expanded.status == 0, "\(expanded.stderr)")
        let header = Array(try Data(contentsOf: URL(fileURLWithPath: ppm)).prefix(15))
        #expect(String(decoding: header, as: UTF8.self) == "P6\n640 1136\n255")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: ppm))
        #expect(Array(bytes[16..<19]) == [0x10, 0x20, 0x30])  // top-left pixel is the background

        let apng = folder.appendingPathComponent("a.apng").path
        let animated = try CLITests.runExecutable([
            "render", Self.catalog.path, "--scale", "1", "--duration", "1s", "-o", apng
        ])
        #expect(animated.status == 0, "\(animated.stderr)")
        let animation = try AnimationDecoder(bytes: [UInt8](Data(contentsOf: URL(fileURLWithPath: apng))))
        // The heart sequence runs at 8 fps: frames at 0, 125, ..., 875 ms.
        #expect(animation.info.format == .apng && animation.info.frameCount == 8)
        #expect(animation.info.frames.allSatisfy { $0.delay.milliseconds == 125 })

        // Nothing moves: one frame shown for a second, not for a millisecond.
        let still = folder.appendingPathComponent("s.apng").path
        let drawn = try CLITests.runExecutable([
            "render", CLITests.samplePack.appendingPathComponent("05-still-blob.png").path, "--scale", "1", "-o", still
        ])
        #expect(drawn.stdout.contains(", 1 frame over 1.0 s"), "\(drawn.stdout)")
        let one = try AnimationDecoder(bytes: [UInt8](Data(contentsOf: URL(fileURLWithPath: still))))
        #expect(one.info.frameCount == 1 && one.info.frames.first?.delay.milliseconds == 1000)
    }

    @Test(
        "render: a bad option is a usage error (exit 64: one line naming the problem, then the usage); a bad pack or background is one line naming it (exit 1); nothing is written",
        arguments: [
            Refusal(
                arguments: ["render", "corpus/sample-pack", "-o", "OUT.gif"], status: 64,
                message: "Error: The output must end in .png, .ppm or .apng."),
            Refusal(
                arguments: ["render", "corpus/sample-pack", "--at", "1s", "--frame", "2", "-o", "OUT.png"], status: 64,
                message: "Error: Give --at or --frame, not both."),
            Refusal(
                arguments: ["render", "corpus/sample-pack", "--scale", "4", "-o", "OUT.png"], status: 64,
                message: "Error: --scale must be 1, 2 or 3."),
            Refusal(
                arguments: ["render", "corpus/sample-pack", "--at", "soon", "-o", "OUT.png"], status: 64,
                message: "Error: --at soon is not a time (1.25s, 1250ms)."),
            // A negative value is named for what is wrong with it, not taken for a missing one.
            Refusal(
                arguments: ["render", "corpus/sample-pack", "--at", "-1s", "-o", "OUT.png"], status: 64,
                message: "Error: --at -1s is not a time (1.25s, 1250ms)."),
            Refusal(
                arguments: ["render", "corpus/sample-pack", "--frame", "-1", "-o", "OUT.png"], status: 64,
                message: "Error: --frame must be 0 or more."),
            Refusal(
                arguments: ["render", "corpus/sample-pack", "--view", "0x10", "-o", "OUT.png"], status: 64,
                message: "Error: --view must be WxH in points, each side from 1 to 4096, for example 390x844."),
            // Past the range, negative (not taken for a missing value) or hexadecimal: the range named.
            Refusal(
                arguments: ["render", "corpus/sample-pack", "--view", "4097x10", "-o", "OUT.png"], status: 64,
                message: "Error: --view must be WxH in points, each side from 1 to 4096, for example 390x844."),
            Refusal(
                arguments: ["render", "corpus/sample-pack", "--view", "-5x5", "-o", "OUT.png"], status: 64,
                message: "Error: --view must be WxH in points, each side from 1 to 4096, for example 390x844."),
            Refusal(
                arguments: ["render", "corpus/sample-pack", "--view", "0x190x844", "-o", "OUT.png"], status: 64,
                message: "Error: --view must be WxH in points, each side from 1 to 4096, for example 390x844."),
            Refusal(
                arguments: ["render", "corpus/sample-pack", "--compact-height", "0x10", "-o", "OUT.png"], status: 64,
                message:
                    "Error: --compact-height must be a fraction (0.25 or 25%), points (200pt, or a bare number over 1) or keyboard."
            ),
            Refusal(
                arguments: ["render", "corpus/sample-pack", "--at", "1s", "-o", "OUT.apng"], status: 64,
                message: "Error: An animated .apng output takes --duration, not --at or --frame."),
            Refusal(
                arguments: ["render", "corpus/sample-pack", "--background", "no-such-colour", "-o", "OUT.png"],
                status: 64,
                message: "Error: --background no-such-colour: not a colour name, #RRGGBB or an image file"),
            Refusal(
                arguments: [
                    "render", "corpus/sample-pack", "--device", "ipad-mini", "--view", "400x800", "-o", "OUT.png"
                ],
                status: 64, message: "Error: Give --device or --view, not both."),
            Refusal(
                arguments: ["render", "corpus/sample-pack", "--all", "-o", "OUT.png"], status: 64,
                message: "Error: --all grows the expanded style's canvas; add --style expanded."),
            Refusal(
                arguments: ["fit", "corpus/sample-pack", "--dry-run", "--icon", "/no/such/icon.png"], status: 1,
                message: "Error: --icon /no/such/icon.png: no such file"),
            Refusal(
                arguments: ["render", "/no/such/pack", "-o", "OUT.png"], status: 1,
                message: "Error: /no/such/pack: no such file or folder"),
            Refusal(
                arguments: ["render", "corpus/sample-pack/05-still-blob.png", "corpus/sample-pack", "-o", "OUT.png"],
                status: 64,
                message: "Error: corpus/sample-pack is a folder: name one pack alone, or image files one by one."),
            Refusal(
                arguments: ["transcript", "/no/such/chat.txt", "-o", "OUT.png"], status: 1,
                message: "Error: /no/such/chat.txt: no such file or folder")
        ])
    func renderErrors(_ bad: Refusal) throws {
        let folder = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let args = bad.arguments.map {
            $0.replacingOccurrences(of: "OUT", with: folder.appendingPathComponent("out").path)
                .replacingOccurrences(of: "corpus/", with: CLITests.repoRoot.path + "/corpus/")
        }
        let result = try CLITests.runExecutable(args)
        #expect(result.status == bad.status)
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(
            lines.first == bad.message.replacingOccurrences(of: "corpus/", with: CLITests.repoRoot.path + "/corpus/"),
            "\(result.stderr)")
        if bad.status == 64 {
            // swift-argument-parser's usage hint follows a usage error.
            #expect(
                lines.count == 4 && lines[1].hasPrefix("Usage: stickers render ")
                    && lines[2].contains("'stickers render --help'")
                    && lines[3].isEmpty, "\(result.stderr)")
        } else {
            #expect(lines == [bad.message, ""], "exactly one line: \(result.stderr)")
        }
        #expect(result.stdout.isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test("render, sheet, transcript and filmstrip name the files of a pack they leave out, as cli.md says")
    func ignoredFilesWarned() throws {
        let folder = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pack = folder.appendingPathComponent("pack")
        try FileManager.default.createDirectory(
            at: pack.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data("hi".utf8).write(to: pack.appendingPathComponent("readme.txt"))
        try FileManager.default.copyItem(
            at: CLITests.samplePack.appendingPathComponent("05-still-blob.png"),
            to: pack.appendingPathComponent("blob.png"))
        for command in ["render", "sheet", "transcript", "filmstrip"] {
            let output = folder.appendingPathComponent("\(command).png").path
            let result = try CLITests.runExecutable([command, pack.path, "-o", output])
            #expect(result.status == 0, "\(command): \(result.stderr)")
            #expect(
                result.stderr.contains("warning: \(pack.path)/readme.txt: ignored: not an image file")
                    && result.stderr.contains("warning: \(pack.path)/sub: ignored: a folder"),
                "\(command): \(result.stderr)")
            // A pack of one sticker is counted in the singular.
            let summary = ["render": "1 of 1 sticker visible", "sheet": "1 sticker (rows) x 8 backgrounds"][command]
            #expect(summary.map { result.stdout.contains($0) } ?? true, "\(command): \(result.stdout)")
        }
    }

    @Test("an output whose folder is a file is named for that, not as a missing folder; nothing is written")
    func outputUnderAFile() throws {
        let folder = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("notes")
        try Data("notes".utf8).write(to: file)
        for command in ["render", "sheet", "transcript"] {
            let output = file.appendingPathComponent("\(command).png").path
            let result = try CLITests.runExecutable([command, CLITests.samplePack.path, "-o", output])
            #expect(result.status == 1, "\(command): \(result.stderr)")
            #expect(result.stderr == "Error: \(output): \(file.path) is a file, not a folder\n", "\(command)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["notes"])
    }

    @Test("render: a failed render leaves an earlier output untouched")
    func failureKeepsEarlierOutput() throws {
        let folder = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let out = folder.appendingPathComponent("out.png")
        try Data("earlier".utf8).write(to: out)
        let result = try CLITests.runExecutable(["render", "/no/such/pack", "-o", out.path])
        #expect(result.status == 1, "an unreadable input: \(result.stderr)")
        #expect(try Data(contentsOf: out) == Data("earlier".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["out.png"])
    }

    @Test("render: Ctrl-C during a long animated render leaves the earlier output untouched and no temporary file")
    func interruptKeepsEarlierOutput() throws {
        let folder = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let out = folder.appendingPathComponent("browser.apng")
        try Data("earlier".utf8).write(to: out)
        // posix_spawn with a clean signal mask (a test runs on a worker thread that blocks
        // signals, and a child inheriting that mask would never see the SIGINT), progress as
        // lines on a one-page pipe. Once the first line is read the render has started, and
        // it cannot finish: its hundreds of lines fill the pipe, which the test no longer reads.
        let (pid, progress) = try PreviewTests.spawnWithStderrPipe([
            try PreviewTests.executable(), "render", CLITests.samplePack.path,
            "--style", "expanded", "--duration", "20s", "--progress", "lines", "-o", out.path
        ])
        defer { close(progress) }
        let first = PreviewTests.readLine(from: progress, containing: "rendering ")
        #expect(first != nil, "the render printed its progress")
        let total = Int(first?.split(separator: "/").last ?? "") ?? 0
        #expect(
            total * "rendering 1/\(total)\n".utf8.count > 2 * 4096, "enough progress to fill the pipe: \(total) frames")
        var status: Int32 = 0
        kill(pid, SIGINT)
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        #expect(status & 0x7F == SIGINT, "ended by the signal")
        #expect(try Data(contentsOf: out) == Data("earlier".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["browser.apng"])
    }

    @Test(
        "render, sheet, transcript and preview draw a WebP and an 800 px PNG, and name them as stickers Messages does not take as they are"
    )
    func notTakenByMessages() throws {
        let folder = CLITests.temporaryDirectory()
        let pack = folder.appendingPathComponent("mixed")
        try FileManager.default.createDirectory(at: pack, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = """
            import sys
            from PIL import Image
            Image.new("RGBA", (408, 408), (0, 90, 200, 255)).save(sys.argv[1] + "/a-good.png")
            Image.new("RGBA", (408, 408), (200, 90, 0, 255)).save(sys.argv[1] + "/b-telegram.webp", lossless=True)
            Image.new("RGBA", (800, 800), (0, 200, 90, 255)).save(sys.argv[1] + "/c-big.png")
            """
        try #require(try TestProcess.run(["python3", "-c", script, pack.path]) == 0)
        let expected = [
            "warning: b-telegram: drawn, but Messages does not take it as it is (a WebP file); `stickers fit` makes it a sticker",
            "warning: c-big: drawn, but Messages does not take it as it is (800x800 px, outside 300-618); `stickers fit` makes it a sticker"
        ]
        for command in ["render", "sheet", "transcript", "preview"] {
            let output =
                command == "preview"
                ? ["--at", "0", "--width", "40", "--height", "10"]
                : ["-o", folder.appendingPathComponent("\(command).png").path]
            let result = try CLITests.runExecutable([command, pack.path] + output)
            #expect(result.status == 0, "\(command): \(result.stderr)")
            let warnings = result.stderr.split(separator: "\n").map(String.init).filter {
                $0.contains("Messages does not")
            }
            #expect(warnings == expected, "\(command): \(result.stderr)")
        }
    }

    @Test("sheet and filmstrip: sizes follow the stickers, backgrounds and frames")
    func sheets() throws {
        let folder = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let sheet = folder.appendingPathComponent("sheet.png").path
        let result = try CLITests.runExecutable(["sheet", Self.catalog.path, "-o", sheet])
        #expect(result.status == 0, "\(result.stderr)")
        let decoded = try AnimationDecoder(bytes: [UInt8](Data(contentsOf: URL(fileURLWithPath: sheet))))
        // Regular = 136 pt at 1x, plus 8 pt padding each side: 152 px tiles; 8 backgrounds x 2 stickers.
        #expect(decoded.info.width == 8 * 152 && decoded.info.height == 2 * 152)

        let strip = folder.appendingPathComponent("strip.png").path
        let film = try CLITests.runExecutable([
            "filmstrip", CLITests.samplePack.appendingPathComponent("04-party-popper.gif").path,
            "--columns", "4", "-o", strip
        ])
        #expect(film.status == 0, "\(film.stderr)")
        // 8 frames of 100 ms, the last 1500 ms: starts 0, 100, ..., 700.
        #expect(film.stdout.contains("#7  start 700 ms  shows 1500 ms"))
        let stripImage = try AnimationDecoder(bytes: [UInt8](Data(contentsOf: URL(fileURLWithPath: strip))))
        #expect(stripImage.info.width == 4 * (204 + 12))

        // --sticker in a pack: the catalog's "Heart" as heart, a folder's sticker by its file name.
        for (pack, name, frames) in [
            (Self.catalog.path, "heart", 6), (CLITests.samplePack.path, "04-party-popper.gif", 8)
        ] {
            let chosen = try CLITests.runExecutable(["filmstrip", pack, "--sticker", name, "-o", strip])
            #expect(
                chosen.status == 0 && chosen.stdout.contains(", \(frames) frames of"),
                "\(chosen.stdout)\(chosen.stderr)")
        }
    }
}
