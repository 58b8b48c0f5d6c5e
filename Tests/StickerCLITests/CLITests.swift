import AnimationCodec
import Foundation
import StickerCLI
import TestSupport
import Testing

/// The `stickers` CLI contract: `info`, `frames` (png, ppm, rgba and frames.json), and how
/// bad input fails. Commands run in process where possible and as the built executable
/// where the exit status and stderr matter.
@Suite("stickers CLI", .timeLimit(.minutes(3)))
struct CLITests {
    static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let conformance = ConformanceSuites.root
    static let samplePack = repoRoot.appendingPathComponent("corpus/sample-pack")

    static func temporaryDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("stickers-cli-\(UUID().uuidString)")
    }

    static func runInProcess(_ arguments: [String]) throws {
        var command = try StickersCommand.parseAsRoot(arguments)
        try command.run()
    }

    /// Runs the built `stickers` executable.
    static func runExecutable(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let output = try TestProcess.capture([try executable()] + arguments)
        return (output.status, output.stdout, output.stderr)
    }

    /// Runs `stickers` with `arguments` as a user file permissions hold for: as nobody (by
    /// util-linux's setpriv) when the tests run as root, which passes them, from a copy of the
    /// program in `folder` (made readable to all, as must be what it reads), else as the tests' user.
    static func runUnprivileged(_ arguments: [String], programIn folder: URL) throws -> TestProcess.Output {
        let program = folder.appendingPathComponent("stickers")
        if !FileManager.default.fileExists(atPath: program.path) {
            try FileManager.default.copyItem(atPath: try executable(), toPath: program.path)
        }
        #expect(chmod(folder.path, 0o755) == 0 && chmod(program.path, 0o755) == 0)
        let user = getuid() == 0 ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        return try TestProcess.capture(user + [program.path] + arguments)
    }

    /// A file that cannot be read (mode 000) is named so, with the reason, by validate: not as
    /// an empty file, though it holds bytes.
    @Test("validate names a file it may not read as unreadable, with the reason, not as empty")
    func unreadableFile() throws {
        let folder = Self.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let secret = folder.appendingPathComponent("secret.png")
        try FileManager.default.copyItem(atPath: try OptionFixtures.path("solid.png"), toPath: secret.path)
        #expect(chmod(secret.path, 0) == 0)
        let result = try Self.runUnprivileged(["validate", secret.path], programIn: folder)
        #expect(result.status == 1)
        #expect(
            result.stdout.contains("error [format] secret: secret.png cannot be read (Permission denied)"),
            "\(result.stdout)")
        #expect(!result.stdout.contains("empty"), "\(result.stdout)")
    }

    /// The built `stickers` executable's path.
    static func executable() throws -> String {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent(
                "stickers"),
            repoRoot.appendingPathComponent(".build/debug/stickers")
        ]
        return try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }).path
    }

    static func json(_ url: URL) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
    }

    @Test(
        "what a command prints that cannot all be written (stdout a full disk, /dev/full) fails it, naming standard output",
        arguments: [["info", "--json"], ["validate"], ["info"], ["preview", "--graphics", "kitty"]])
    func fullStandardOutput(command: [String]) throws {
        let folder = Self.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let errors = folder.appendingPathComponent("stderr").path
        let star = Self.samplePack.appendingPathComponent("02-spinning-star.gif").path
        let arguments = [command[0], star] + command.dropFirst()
        let pid = try TestProcess.spawn(
            [try Self.executable()] + arguments, standardOutput: "/dev/full", standardError: .file(errors))
        let status = try TestProcess.wait(for: pid, arguments: arguments)
        let stderr = String(decoding: FileManager.default.contents(atPath: errors) ?? Data(), as: UTF8.self)
        #expect(status == 1, "\(stderr)")
        #expect(stderr.contains("standard output") && stderr.contains("No space left on device"), "\(stderr)")
        // The same command into a file of its own succeeds: only the full disk failed it.
        let ok = try TestProcess.run(
            [try Self.executable()] + arguments, standardOutput: folder.appendingPathComponent("out"))
        #expect(ok == 0)
    }

    @Test("frames says what it wrote: as many frames as Pillow counts in the file, and frames.json")
    func framesSummary() throws {
        let input = Self.samplePack.appendingPathComponent("02-spinning-star.gif")
        let out = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let count = try TestProcess.capture([
            "python3", "-c", "import sys; from PIL import Image; print(Image.open(sys.argv[1]).n_frames)", input.path
        ])
        let frames = try #require(Int(count.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), "\(count)")
        let result = try Self.runExecutable(["frames", input.path, "--out", out.path])
        #expect(result.status == 0)
        #expect(result.stdout == "wrote \(frames) frames and frames.json to \(out.path)\n", "\(result.stdout)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).count == frames + 1)
    }

    @Test("frames --format rgba: one exact premultiplied buffer per frame, plus frames.json", .needs("gif-peterdn"))
    func framesRGBA() throws {
        let input = Self.conformance.appendingPathComponent("gif-peterdn/animated_loop.gif")
        let out = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        try Self.runInProcess(["frames", input.path, "--out", out.path, "--format", "rgba"])
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path).sorted()
        #expect(names == ["frame-0000.rgba", "frame-0001.rgba", "frame-0002.rgba", "frame-0003.rgba", "frames.json"])
        // The suite's expected canvas after each frame (opaque, so premultiplied is straight), read by Pillow.
        let expected = try Pillow.animations((0..<4).map { Self.peterdnExpected("animated_loop", frame: $0) })
        for (index, reference) in expected.enumerated() {
            let data = try Data(contentsOf: out.appendingPathComponent(String(format: "frame-%04d.rgba", index)))
            let frame = try #require(reference.frames.first)
            #expect(
                frame.width == 100 && frame.height == 100
                    && stride(from: 3, to: frame.pixels.count, by: 4).allSatisfy { frame.pixels[$0] == 255 })
            #expect(data.count == 100 * 100 * 4)
            #expect([UInt8](data) == frame.pixels, "frame \(index)")
        }
        // gifsuite.html: 100x100, 4 frames, loops forever, 1 s per frame.
        let meta = try Self.json(out.appendingPathComponent("frames.json"))
        #expect(meta["width"] as? Int == 100 && meta["height"] as? Int == 100)
        #expect(meta["loopCount"] as? Int == 0 && meta["plays"] as? Int == 0)
        let entries = try #require(meta["frames"] as? [[String: Any]])
        #expect(entries.map { $0["index"] as? Int } == [0, 1, 2, 3])
        #expect(entries.allSatisfy { $0["delayMs"] as? Double == 1000 })
    }

    @Test(
        "frames.json: loopCount as stored (null when absent) and plays as a browser counts them",
        .needs("gif-peterdn", "apng-philip-taylor"),
        arguments: [
            ("gif-peterdn/animated_noloop.gif", nil, 1), ("apng-philip-taylor/num_plays_1.png", 1, 1),
            ("apng-philip-taylor/num_plays.png", 0, 0), ("gif-pillow/duplicate_number_of_loops.gif", 2, 3)
        ] as [(String, Int?, Int)])
    func loopCounts(path: String, loopCount: Int?, plays: Int) throws {
        let out = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        try Self.runInProcess([
            "frames", Self.conformance.appendingPathComponent(path).path, "--out", out.path, "--format", "ppm"
        ])
        let meta = try Self.json(out.appendingPathComponent("frames.json"))
        if let loopCount {
            #expect(meta["loopCount"] as? Int == loopCount)
        } else {
            #expect(meta["loopCount"] is NSNull)
        }
        #expect(meta["plays"] as? Int == plays)
    }

    @Test(
        "validate says how often each sticker plays as a browser counts it: once, three times, forever",
        .needs("gif-peterdn", "apng-philip-taylor", "gif-pillow"),
        arguments: [
            ("apng-philip-taylor/num_plays_1.png", "plays once"),
            ("gif-pillow/duplicate_number_of_loops.gif", "3 plays"),
            ("apng-philip-taylor/num_plays.png", "loops forever")
        ])
    func validatePlays(path: String, phrase: String) throws {
        let result = try Self.runExecutable(["validate", Self.conformance.appendingPathComponent(path).path])
        let summary = result.stdout.split(separator: "\n").first { $0.contains(" ms loop") } ?? ""
        #expect(summary.hasSuffix(", \(phrase)") || summary.contains(", \(phrase),"), "\(result.stdout)")
    }

    @Test("frames --format ppm writes P6 images of the frame over black", .needs("apng-philip-taylor"))
    func framesPPM() throws {
        let input = Self.conformance.appendingPathComponent("apng-philip-taylor/blend_op_source_near_transparent.png")
        let out = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        try Self.runInProcess(["frames", input.path, "--out", out.path, "--format", "ppm"])
        let names = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".ppm") }
            .sorted()
        let last = [UInt8](try Data(contentsOf: out.appendingPathComponent(names.last!)))
        let header = Array("P6\n128 64\n255\n".utf8)
        #expect(Array(last.prefix(header.count)) == header)
        #expect(last.count == header.count + 128 * 64 * 3)
        // Green with alpha 2/255 over black: (0, 2, 0).
        #expect(Array(last[header.count..<(header.count + 3)]) == [0, 2, 0])
    }

    @Test("frames --out over an earlier run: its frame files are replaced, none left over, other files kept")
    func framesReplaceEarlierRun() throws {
        let out = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let star = Self.samplePack.appendingPathComponent("02-spinning-star.gif")
        let blob = Self.samplePack.appendingPathComponent("01-bouncing-blob.png")
        let counts = try Pillow.animations([star, blob]).map(\.frames.count)
        #expect(counts[0] > counts[1], "the second input has fewer frames: \(counts)")
        try Self.runInProcess(["frames", star.path, "--out", out.path, "--progress", "none"])
        try Data("mine".utf8).write(to: out.appendingPathComponent("notes.txt"))
        try Data("mine".utf8).write(to: out.appendingPathComponent("frame-cover.png"))
        // A frame file of the same pattern that no run of ours listed (another tool's) stays.
        try Data("mine".utf8).write(to: out.appendingPathComponent("frame-9999.png"))
        try Self.runInProcess(["frames", blob.path, "--out", out.path, "--format", "ppm", "--progress", "none"])
        let expected =
            (0..<counts[1]).map { String(format: "frame-%04d.ppm", $0) } + [
                "frame-9999.png", "frame-cover.png", "frames.json", "notes.txt"
            ]
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted() == expected.sorted())
    }

    @Test(
        "frames --out where a frame's name is a folder: the folder and everything else kept as it was, one line naming it"
    )
    func framesKeepAFolderOfAFramesName() throws {
        let out = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let star = Self.samplePack.appendingPathComponent("02-spinning-star.gif")
        let blob = Self.samplePack.appendingPathComponent("01-bouncing-blob.png")
        try Self.runInProcess(["frames", star.path, "--out", out.path, "--progress", "none"])
        // The user's folder where the next run's third frame goes, holding a file of theirs.
        let folder = out.appendingPathComponent("frame-0002.png")
        try FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("mine".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let before = try XcodeCommandTests.tree(out)
        let result = try Self.runExecutable(["frames", blob.path, "--out", out.path, "--progress", "none"])
        #expect(result.status == 1)
        #expect(
            result.stderr == "Error: \(folder.path): is a folder, not replaced; nothing was written\n",
            "\(result.stderr)")
        #expect(
            try XcodeCommandTests.tree(out) == before, "every frame and frames.json of the first run, and the folder")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: out.deletingLastPathComponent().path).allSatisfy {
                !$0.hasPrefix("." + out.lastPathComponent)
            }, "no staging left")
    }

    @Test("a staging folder a killed run left beside the output is removed by the next run; a live process's is kept")
    func staleStagingRemoved() throws {
        let parent = Self.temporaryDirectory()
        try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: parent) }
        // A process that has ended: its number names no process now.
        let ended = try TestProcess.spawn(["/bin/true"])
        var status: Int32 = 0
        while waitpid(ended, &status, 0) < 0 && errno == EINTR {}
        let stale = parent.appendingPathComponent(".out.partial-\(ended)")
        let live = parent.appendingPathComponent(".out.partial-\(getpid())")
        for folder in [stale, live] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("half".utf8).write(to: folder.appendingPathComponent("frame-0000.png"))
        }
        let star = Self.samplePack.appendingPathComponent("02-spinning-star.gif")
        let out = parent.appendingPathComponent("out")
        let result = try Self.runExecutable(["frames", star.path, "--out", out.path, "--progress", "none"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: stale.path), "the killed run's staging is gone")
        #expect(FileManager.default.fileExists(atPath: live.path), "a running process's staging is kept")
    }

    @Test("validate: a GIF and a JPEG cut short are damaged, with what ended early; the whole files are not")
    func validateDamaged() throws {
        let folder = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (name, cut) in [("02-spinning-star.gif", "cut-star.gif"), ("06-blob-card.jpg", "cut-card.jpg")] {
            let whole = try Data(contentsOf: Self.samplePack.appendingPathComponent(name))
            try whole.write(to: folder.appendingPathComponent("whole-" + name))
            try whole.prefix(whole.count / 2).write(to: folder.appendingPathComponent(cut))
        }
        // 40% of the star ends inside a frame's pixel data: that frame is named too.
        let star = try Data(contentsOf: Self.samplePack.appendingPathComponent("02-spinning-star.gif"))
        try star.prefix(star.count * 2 / 5).write(to: folder.appendingPathComponent("mid-star.gif"))
        // Irregular JPEGs whose every pixel decodes: a JFIF revision libjpeg does not know
        // (2.01), no EOI marker at the end, two stray bytes before it. Not damaged.
        var jpeg = [UInt8](try Data(contentsOf: Self.samplePack.appendingPathComponent("06-blob-card.jpg")))
        try #require(
            jpeg.count > 20 && Array(jpeg[6..<11]) == Array("JFIF\u{0}".utf8) && jpeg.suffix(2) == [0xFF, 0xD9])
        var revision = jpeg
        revision[11] = 2
        try Data(revision).write(to: folder.appendingPathComponent("revision.jpg"))
        try Data(jpeg.dropLast(2)).write(to: folder.appendingPathComponent("no-end.jpg"))
        jpeg.insert(contentsOf: [0x00, 0x00], at: jpeg.count - 2)
        try Data(jpeg).write(to: folder.appendingPathComponent("padded.jpg"))
        let result = try Self.runExecutable(["validate", folder.path, "--json"])
        let report = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
        let findings = try #require(report["findings"] as? [[String: Any]])
        let damaged = findings.filter { $0["rule"] as? String == "damaged" }
        #expect(
            Set(damaged.compactMap { $0["sticker"] as? String }) == ["cut-card", "cut-star", "mid-star"],
            "\(damaged)")
        let mid = damaged.first { $0["sticker"] as? String == "mid-star" }?["message"] as? String ?? ""
        #expect(mid.contains("GIF ends early") && mid.contains("pixel data ends"), "\(mid)")
        for finding in damaged {
            #expect(finding["severity"] as? String == "warning")
            #expect((finding["message"] as? String ?? "").contains("ends early"), "\(finding)")
        }
    }

    @Test("validate --json on what is not a pack still prints a failed report, its reason the one finding, exit 1")
    func validateJSONNotAPack() throws {
        let folder = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for input in [folder.path, folder.appendingPathComponent("missing.png").path] {
            let result = try Self.runExecutable(["validate", input, "--json"])
            #expect(result.status == 1)
            let report = try #require(
                try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
            #expect(report["passed"] as? Bool == false && report["errorCount"] as? Int == 1)
            let findings = report["findings"] as? [[String: Any]] ?? []
            #expect(findings.count == 1 && findings.first?["rule"] as? String == "pack", "\(findings)")
            #expect(!result.stderr.isEmpty, "the reason is on stderr too")
            // Paths as they are written, not with JSON's optional "\/" escape.
            #expect(result.stdout.contains(folder.path) && !result.stdout.contains("\\/"), "\(result.stdout)")
        }
    }

    /// gif-peterdn's expected canvas after frame `frame` of `name`.gif.
    static func peterdnExpected(_ name: String, frame: Int) -> URL {
        conformance.appendingPathComponent("gif-peterdn/frames/\(name)-\(frame).png")
    }

    @Test(
        "frames --format png writes straight-alpha PNGs of the suite's expected canvases, both read by Pillow",
        .needs("gif-peterdn"))
    func framesPNG() throws {
        let input = Self.conformance.appendingPathComponent("gif-peterdn/animated_transparent_loop.gif")
        let out = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        try Self.runInProcess(["frames", input.path, "--out", out.path, "--format", "png"])
        let written = (0..<4).map { out.appendingPathComponent(String(format: "frame-%04d.png", $0)) }
        let expected = (0..<4).map { Self.peterdnExpected("animated_transparent_loop", frame: $0) }
        let images = try Pillow.animations(written + expected).map { try #require($0.frames.first) }
        for index in 0..<4 {
            let (ours, reference) = (images[index], images[4 + index])
            #expect(ours.width == reference.width && ours.height == reference.height)
            // Alpha everywhere; colour where a pixel shows (a transparent one's colour means nothing).
            var wrong = 0
            for p in stride(from: 0, to: min(ours.pixels.count, reference.pixels.count), by: 4) {
                if ours.pixels[p + 3] != reference.pixels[p + 3] { wrong += 1; continue }
                if reference.pixels[p + 3] != 0, ours.pixels[p..<(p + 3)] != reference.pixels[p..<(p + 3)] {
                    wrong += 1
                }
            }
            #expect(wrong == 0, "frame \(index)")
            #expect(
                Set(stride(from: 3, to: reference.pixels.count, by: 4).map { reference.pixels[$0] }) == [0, 255],
                "frame \(index) has both kinds of pixel")
        }
    }

    /// Runs `arguments` (the first looked up on PATH) under ``TestProcess``'s time limit; its exit status.
    static func runProcess(_ arguments: [String]) throws -> Int32 { try TestProcess.run(arguments) }

    @Test("info prints the format, canvas, loop count and every frame; --json parses")
    func info() throws {
        let input = Self.samplePack.appendingPathComponent("04-party-popper.gif").path
        let text = try Self.runExecutable(["info", input])
        #expect(text.status == 0)
        #expect(text.stdout.contains("format:     gif"))
        #expect(text.stdout.contains("canvas:     618x618"))
        #expect(text.stdout.contains("loop count: 2 (plays: 3)"))
        let json = try Self.runExecutable(["info", input, "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as! [String: Any]
        #expect(object["frameCount"] as? Int == 8)
        #expect((object["frames"] as? [[String: Any]])?.last?["delayMs"] as? Double == 1500)
    }

    @Test(
        "info of Pillow's GIF of three 0 ms frames: 0 ms stored, shown for 300 ms in Messages; no such line at 100 ms")
    func shownDuration() throws {
        let folder = Self.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Python.run(
            """
            import sys, os
            from PIL import Image
            frames = [Image.new("RGB", (8, 8), c) for c in [(255, 0, 0), (0, 255, 0), (0, 0, 255)]]
            for name, ms in [("zero.gif", 0), ("tenth.gif", 100)]:
                frames[0].save(os.path.join(sys.argv[1], name), save_all=True, append_images=frames[1:], duration=ms, loop=0)
            """, [folder.path])
        let zero = try Self.runExecutable(["info", folder.appendingPathComponent("zero.gif").path])
        #expect(zero.stdout.contains("duration:   0 ms per play (stored delays)"), "\(zero.stdout)")
        #expect(zero.stdout.contains("shown:      300 ms per play in Messages"), "\(zero.stdout)")
        let tenth = try Self.runExecutable(["info", folder.appendingPathComponent("tenth.gif").path])
        #expect(tenth.stdout.contains("duration:   300 ms per play"), "\(tenth.stdout)")
        #expect(!tenth.stdout.contains("shown:"), "\(tenth.stdout)")
    }

    @Test(
        "bad input: one line on stderr naming the problem, exit 1, no output folder",
        .needs("pngsuite", "apng-philip-taylor", "wuffs-testdata"),
        arguments: [
            "pngsuite/png/xcsn0g01.png", "pngsuite/png/xs1n0g01.png", "apng-philip-taylor/syntax_num_frames_zero.png",
            "wuffs-testdata/artificial-gif/no-frames.gif", "README.md", "missing-file.gif"
        ])
    func badInput(path: String) throws {
        let out = Self.temporaryDirectory()
        let result = try Self.runExecutable([
            "frames", Self.conformance.appendingPathComponent(path).path, "--out", out.path
        ])
        #expect(result.status == 1, "docs/cli.md: 1 for unreadable or invalid input")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(result.stderr.contains((path as NSString).lastPathComponent))
        #expect(!FileManager.default.fileExists(atPath: out.path))
        let siblings = try FileManager.default.contentsOfDirectory(atPath: out.deletingLastPathComponent().path)
        #expect(!siblings.contains { $0.contains(out.lastPathComponent) })
    }

    @Test("info and frames on a FIFO say it is one, exit 1, without waiting for a writer")
    func fifoNamed() throws {
        let folder = Self.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("pipe.png").path
        #expect(mkfifo(fifo, 0o644) == 0)
        for arguments in [["info", fifo], ["frames", fifo, "--out", folder.appendingPathComponent("out").path]] {
            let result = try Self.runExecutable(arguments)
            #expect(result.status == 1, "\(arguments): \(result.stderr)")
            #expect(
                result.stderr == "Error: \(fifo): is a FIFO (named pipe), not an image file\n", "\(arguments)")
        }
    }

    @Test("a frame that fails to decode midway leaves no output folder behind")
    func failureMidway() throws {
        // Corrupt the deflate data of the last fdAT of a sample sticker, keeping its CRC valid,
        // so the structure reads and the failure comes while frames are being written.
        let source = Self.samplePack.appendingPathComponent("01-bouncing-blob.png")
        let broken = Self.temporaryDirectory().appendingPathExtension("png")
        let script = """
            import struct, zlib
            d = bytearray(open('\(source.path)', 'rb').read())
            i, last = 8, None
            while i < len(d):
                n = struct.unpack('>I', d[i:i+4])[0]
                if d[i+4:i+8] == b'fdAT': last = (i, n)
                i += 12 + n
            i, n = last
            for k in range(i + 8 + 4 + 2, i + 8 + n): d[k] ^= 0x5A
            d[i+8+n:i+12+n] = struct.pack('>I', zlib.crc32(bytes(d[i+4:i+8+n])))
            open('\(broken.path)', 'wb').write(d)
            """
        #expect(try Self.runProcess(["python3", "-c", script]) == 0)
        defer { try? FileManager.default.removeItem(at: broken) }
        let out = Self.temporaryDirectory()
        let result = try Self.runExecutable(["frames", broken.path, "--out", out.path, "--format", "rgba"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("compressed image data is corrupt"))
        #expect(!FileManager.default.fileExists(atPath: out.path))
    }

    @Test("frames: Ctrl-C midway leaves the earlier folder untouched and no staging folder")
    func interruptKeepsEarlierFrames() throws {
        let folder = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("frames")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try Data("earlier".utf8).write(to: out.appendingPathComponent("frame-0000.png"))
        // 400 frames of 64x64 (a moving gradient): their 400 progress lines overflow the pipe.
        let side = 64
        let count = 400
        var writer = APNGWriter(width: side, height: side, frameCount: count, plays: 0)
        // Pixel (x, y) of frame i has red x + y + i: row y of frame i is a slice of one line.
        var line: [UInt8] = []
        for value in 0..<(2 * side + count) { line += [UInt8(truncatingIfNeeded: value), 255, 255, 255] }
        for index in 0..<count {
            var pixels: [UInt8] = []
            pixels.reserveCapacity(side * side * 4)
            for y in 0..<side {
                let start = (y + index) * 4
                pixels += line[start..<start + side * 4]
            }
            writer.append(
                premultiplied: pixels, x: 0, y: 0, width: side, height: side,
                delay: FrameDelay(numerator: 1, denominator: 30))
        }
        let input = folder.appendingPathComponent("long.png")
        try Data(writer.finish()).write(to: input)

        // Progress as lines on a one-page pipe: after the third line, three frames are staged,
        // and the child cannot finish (400 lines fill the pipe, which the test no longer reads).
        let (pid, progress) = try PreviewTests.spawnWithStderrPipe([
            try PreviewTests.executable(), "frames", input.path,
            "--out", out.path, "--progress", "lines"
        ])
        defer { close(progress) }
        var status: Int32 = 0
        func staged() -> [String] {
            let names = [folder, out].flatMap { (try? FileManager.default.contentsOfDirectory(atPath: $0.path)) ?? [] }
            return names.filter { $0.hasPrefix(".frames.partial-") }
        }
        #expect(PreviewTests.readLine(from: progress, containing: "frames 3/400") != nil, "three frames written")
        #expect(staged().count == 1, "the frames are staged in a hidden folder")
        kill(pid, SIGINT)
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        #expect(status & 0x7F == SIGINT, "ended by the signal")
        #expect(staged().isEmpty, "no staging folder left")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path) == ["frame-0000.png"])
        #expect(try Data(contentsOf: out.appendingPathComponent("frame-0000.png")) == Data("earlier".utf8))
    }

    @Test("limit options: each lowered limit refuses the sample sticker with its own message; a device is not a file")
    func limitOptions() throws {
        // 408x408, 12 frames, 231,467 bytes.
        let sticker = Self.samplePack.appendingPathComponent("01-bouncing-blob.png").path
        let expectations: [([String], String)] = [
            (["--max-side", "400"], "image is 408x408, larger than the 400-pixel side limit"),
            (["--max-pixels", "100K"], "image has 166464 pixels, more than the limit of 102400"),
            (["--max-frames", "11"], "has at least 12 frames, more than the limit of 11"),
            (
                ["--max-decoded", "7M"],
                "decoded frames would take at least 7990272 bytes, more than the limit of 7340032"
            ),
            (["--max-file", "200K"], "231467 bytes, more than the 204800 bytes")
        ]
        for (arguments, message) in expectations {
            let result = try Self.runExecutable(["info", sticker] + arguments)
            #expect(result.status == 1 && result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        #expect(try Self.runExecutable(["info", sticker, "--max-side", "408", "--max-frames", "12"]).status == 0)
        let device = try Self.runExecutable(["info", "/dev/zero"])
        #expect(
            device.status == 1 && device.stderr.contains("/dev/zero: is a device, not an image file"),
            "\(device.stderr)")
        #expect(
            try Self.runExecutable(["info", sticker, "--max-pixels", "lots"]).status == 64,
            "a bad value is a usage error")
    }
}

@Suite("Help text")
struct HelpTextTests {
    /// The enum options' values and defaults, as written in the option declarations (described
    /// by EnumArgument, not by swift-argument-parser's generic defaults).
    @Test("enum options list their values and show their defaults in help; an unknown value is refused")
    func enumOptions() throws {
        let help = RenderCommand.helpMessage(columns: 200)
        #expect(help.contains("--style <style>") && help.contains("(values: compact, expanded; default: compact)"))
        #expect(help.contains("(values: raw, browser, apple; default: apple)"))
        // --filter has no default of its own: render takes lanczos3, preview box (its help says so).
        #expect(help.contains("(values: lanczos3, bicubic, triangle, box)"))
        #expect(help.contains("(values: auto, lines, none; default: auto)"))
        #expect(ProgressStyle.allValueStrings == ["auto", "lines", "none"])
        _ = try RenderCommand.parse(["pack", "--style", "expanded", "--progress", "lines", "-o", "x.png"])
        #expect(throws: (any Error).self) { try RenderCommand.parse(["pack", "--style", "sideways", "-o", "x.png"]) }
    }

    @Test("every command's discussion is written one line a paragraph, so the parser alone wraps it")
    func paragraphsAreLines() throws {
        let commands = [StickersCommand.self] + StickersCommand.configuration.subcommands
        for command in commands {
            let discussion = command.configuration.discussion
            for paragraph in discussion.components(separatedBy: "\n\n") {
                #expect(!paragraph.contains("\n"), "\(command.configuration.commandName ?? "?"): \(paragraph)")
            }
            // The parser's own wrapping: no line of the help is longer than 80 columns (but the
            // usage line, which the parser never wraps), and none ends a sentence's first half.
            let lines = command.helpMessage(columns: 80).split(separator: "\n", omittingEmptySubsequences: false)
            for (index, line) in lines.enumerated() where !line.hasPrefix("USAGE:") {
                #expect(line.count <= 80, "\(line)")
                // A hand-wrapped paragraph shows as a short line followed by a lowercase word.
                if index + 1 < lines.count, line.count < 50, !line.isEmpty,
                    let next = lines[index + 1].first, next.isLowercase
                {
                    Issue.record("ragged: \(line) / \(lines[index + 1])")
                }
            }
        }
    }
}
