import AnimationCodec
import Foundation
import StickerCLI
import StickerRenderer
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `stickers preview --graphics kitty|iterm2|sixel`: what it writes, decoded by code that
/// shares nothing with ours (Tests/Scripts/terminal_graphics.py: base64 and Pillow for kitty's
/// PNGs and iTerm2's GIF, a sixel parser written from DEC's definition) and compared with the
/// frames Pillow decodes from the sticker itself; detection against scripted replies in a
/// pseudo-terminal.
@Suite("preview: terminal graphics", .timeLimit(.minutes(5)))
struct TerminalGraphicsTests {
    static let script = CLITests.repoRoot.appendingPathComponent("Tests/Scripts/terminal_graphics.py").path

    /// What the script decodes from `escapes` against `reference`.
    static func decode(_ protocolName: String, _ escapes: URL, reference: String) throws -> [String: Any] {
        let output = try TestProcess.capture(["python3", script, protocolName, escapes.path, reference])
        try #require(output.status == 0, "terminal_graphics.py: \(output.stderr)")
        return try #require(JSONSerialization.jsonObject(with: Data(output.stdout.utf8)) as? [String: Any])
    }

    /// `stickers preview ARGS` into a file (not a terminal).
    static func preview(_ arguments: [String], into file: URL) throws {
        let result = try CLITests.runExecutable(["preview"] + arguments)
        try #require(result.status == 0, "\(result.stderr)")
        try Data(result.stdout.utf8).write(to: file)
    }

    /// A 1x1 still of straight red at alpha 128, and the folder it is in.
    static func onePixel() throws -> URL {
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("one.png")
        try Data(PNGEncoder.encode(premultiplied: [128, 0, 0, 128], width: 1, height: 1)).write(to: file)
        return file
    }

    static func comparisons(_ facts: [String: Any]) -> [[String: Any]] {
        facts["comparisons"] as? [[String: Any]] ?? []
    }

    @Test(
        "kitty and iTerm2 carry every frame exactly (a GIF of few colours), sixel within a level, for a still, an animation, 1x1 and 618x618",
        arguments: ["kitty", "iterm2", "sixel"])
    func payloads(protocolName: String) throws {
        let one = try Self.onePixel()
        defer { try? FileManager.default.removeItem(at: one.deletingLastPathComponent()) }
        let stickers = [
            (CLITests.samplePack.appendingPathComponent("05-still-blob.png").path, 408),
            (CLITests.samplePack.appendingPathComponent("02-spinning-star.gif").path, 408),
            (CLITests.samplePack.appendingPathComponent("03-beating-heart.png").path, 618),
            (one.path, 1)
        ]
        for (sticker, side) in stickers {
            let escapes = one.deletingLastPathComponent().appendingPathComponent("out.\(protocolName)")
            try Self.preview([sticker, "--graphics", protocolName], into: escapes)
            let facts = try Self.decode(protocolName, escapes, reference: sticker)
            let name = URL(fileURLWithPath: sticker).lastPathComponent
            #expect(facts["size"] as? [Int] == [side, side], "\(name): at its own size")
            let reference = facts["referenceFrames"] as? Int ?? 0
            let references = facts["referenceDurations"] as? [Int] ?? []
            if protocolName != "sixel" {
                let durations = facts["durations"] as? [Int] ?? []
                // Every frame, and the loop's length: kitty's gaps to the millisecond, GIF's to
                // the hundredth (each rounded with the rest carried).
                // kitty merges a frame equal to the one before into it (its time added).
                let frames = facts["frames"] as? Int ?? 0
                #expect(
                    protocolName == "kitty" ? (1...reference).contains(frames) : frames == reference,
                    "\(name): \(facts)")
                if reference > 1 {
                    let tolerance = protocolName == "kitty" ? 1 : 10
                    #expect(abs(durations.reduce(0, +) - references.reduce(0, +)) <= tolerance, "\(name): \(durations)")
                }
            }
            for comparison in Self.comparisons(facts) {
                #expect(comparison["sameSize"] as? Bool == true, "\(name)")
                #expect(comparison["visibilityMismatches"] as? Int == 0, "\(name): transparent pixels stay transparent")
                let maxDiff = comparison["maxDiff"] as? Int ?? 255
                let psnr = comparison["psnr"] as? Double ?? 0
                switch (protocolName, name) {
                case ("kitty", _), ("iterm2", "02-spinning-star.gif"), ("iterm2", "05-still-blob.png"),
                    ("iterm2", "one.png"):
                    // PNG, or a GIF of the star's few colours: exact.
                    #expect(maxDiff == 0, "\(protocolName) \(name): \(comparison)")
                case ("sixel", "02-spinning-star.gif"), ("sixel", "one.png"):
                    // Colours in whole percent: within one level.
                    #expect(maxDiff <= 1, "\(protocolName) \(name): \(comparison)")
                default:
                    // 256 colours a frame for shaded art.
                    #expect(psnr >= 30, "\(protocolName) \(name): \(comparison)")
                }
            }
        }
    }

    @Test("a pack's browser as a sixel equals the same picture as a kitty PNG, within a palette's error")
    func pack() throws {
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let common = [CLITests.samplePack.path, "--frame", "0", "--width", "60", "--height", "20"]
        let kitty = folder.appendingPathComponent("pack.kitty")
        let sixel = folder.appendingPathComponent("pack.sixel")
        try Self.preview(common + ["--graphics", "kitty"], into: kitty)
        try Self.preview(common + ["--graphics", "sixel"], into: sixel)
        let facts = try Self.decode("sixel", sixel, reference: "kitty-still:" + kitty.path)
        // 60 x 20 cells of the assumed 10 x 20 pixels: at most 600 x 400, never enlarged.
        let size = facts["size"] as? [Int] ?? []
        #expect(size.count == 2 && size[0] <= 600 && size[1] <= 400 && size[0] * size[1] > 10_000, "\(size)")
        for comparison in Self.comparisons(facts) {
            #expect(comparison["sameSize"] as? Bool == true)
            #expect(comparison["visibilityMismatches"] as? Int == 0)
            #expect(comparison["psnr"] as? Double ?? 0 >= 30, "\(comparison)")
        }
    }

    @Test("--loops N: kitty is asked for N plays (v = N + 1), the GIF repeats N - 1 times")
    func loops() throws {
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let star = CLITests.samplePack.appendingPathComponent("02-spinning-star.gif").path
        for (protocolName, loops, expected) in [
            ("kitty", "3", 4), ("kitty", nil, 1), ("iterm2", "3", 2), ("iterm2", nil, 0)
        ] {
            let escapes = folder.appendingPathComponent("loops.\(protocolName)")
            try Self.preview([star, "--graphics", protocolName] + (loops.map { ["--loops", $0] } ?? []), into: escapes)
            let facts = try Self.decode(protocolName, escapes, reference: star)
            #expect(facts["loops"] as? Int == expected, "\(protocolName) --loops \(loops ?? "none")")
        }
    }

    @Test(
        "without --loops, kitty and the iTerm2 GIF play a sticker as many times as its file says: Pillow's GIF of loop=3 four times, its APNG of loop=1 once"
    )
    func loopsOfTheFile() throws {
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Python.run(
            """
            import sys, os
            from PIL import Image
            frames = [Image.new("RGBA", (64, 64), c) for c in [(255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 255)]]
            frames[0].save(os.path.join(sys.argv[1], "four.gif"), save_all=True, append_images=frames[1:], duration=100, loop=3)
            frames[0].save(os.path.join(sys.argv[1], "once.png"), save_all=True, append_images=frames[1:], duration=100, loop=1)
            """, [folder.path])
        // GIF's loop=3 is three repeats after the first play: four plays, kitty's v=5, the
        // NETSCAPE count 3 again; an APNG's num_plays=1 is one play: v=2 and no NETSCAPE block.
        for (file, protocolName, expected) in [
            ("four.gif", "kitty", 5 as Int?), ("four.gif", "iterm2", 3), ("once.png", "kitty", 2),
            ("once.png", "iterm2", nil)
        ] {
            let sticker = folder.appendingPathComponent(file).path
            let escapes = folder.appendingPathComponent("\(file).\(protocolName)")
            try Self.preview([sticker, "--graphics", protocolName], into: escapes)
            let facts = try Self.decode(protocolName, escapes, reference: sticker)
            #expect(facts["loops"] as? Int == expected, "\(file) \(protocolName): \(facts["loops"] ?? "none")")
        }
    }

    @Test(
        "the iTerm2 GIF shows no frame under 2 hundredths (shown as 100 ms by browsers and ImageIO): hand-worked starts"
    )
    func shortestGIFDelay() {
        func shown(_ starts: [Int], _ end: Int) -> [[Int]] {
            ITerm2Image.shownFrames(starts: starts, end: end).map { [$0.frame, $0.start] }
        }
        // Frames 2 and 5 start 1 after a GIF frame's start: no GIF frame starts with them. The
        // GIF frame from 2 to 5 shows frame 2 (on screen 2 of its 3 hundredths, frame 1 for 1),
        // the one from 7 to 10 frame 5 likewise.
        #expect(shown([0, 2, 3, 5, 7, 8, 10], 12) == [[0, 0], [2, 2], [3, 5], [5, 7], [6, 10]])
        // A flash of 1 hundredth before a frame of 50: the GIF frame from 10 shows the long frame.
        #expect(shown([0, 10, 11], 61) == [[0, 0], [2, 10]])
        // Delays of 100, 100, 13, 250, 17 and 500 ms (7 and 10 ms shown for 100): the 250 ms
        // frame takes the place of the 13 ms one before it; the 17 ms frame, 2 hundredths before
        // the last, keeps its 2.
        #expect(shown([0, 10, 20, 21, 46, 48], 98) == [[0, 0], [1, 10], [3, 20], [4, 46], [5, 48]])
        // The last frame, left out so, takes the place of the one before it: the loop rests on it.
        #expect(shown([0, 2, 3], 4) == [[0, 0], [2, 2]])
        // The last frame kept but shown for 1: the one before it would be left 1, so the last
        // starts where that one did.
        #expect(shown([0, 2, 4], 5) == [[0, 0], [2, 2]])
        #expect(shown([0, 1], 1) == [[1, 0]])
        // A long frame before a short last one is kept, shortened: the last shows for the
        // loop's last two hundredths.
        #expect(shown([0, 10, 60], 61) == [[0, 0], [1, 10], [2, 59]])
        // Three frames crowded into 6 hundredths: the second gives way to the last.
        #expect(shown([0, 5, 6], 6) == [[0, 0], [2, 5]])
    }

    @Test(
        "a 60 fps loop (Pillow's APNG of 60 frames of 17 ms) as an iTerm2 GIF: every delay 20 ms or more, the loop 1,020 ms"
    )
    func sixtyFramesASecond() throws {
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Python.run(
            """
            import sys, os
            from PIL import Image
            frames = [Image.new("RGBA", (64, 64), (i * 4, 0, 255 - i * 4, 255)) for i in range(60)]
            frames[0].save(os.path.join(sys.argv[1], "f17.png"), save_all=True, append_images=frames[1:], duration=17, loop=0)
            """, [folder.path])
        let sticker = folder.appendingPathComponent("f17.png").path
        let escapes = folder.appendingPathComponent("f17.iterm2")
        try Self.preview([sticker, "--graphics", "iterm2"], into: escapes)
        let facts = try Self.decode("iterm2", escapes, reference: sticker)
        let durations = try #require(facts["durations"] as? [Int])
        #expect(durations.allSatisfy { $0 >= 20 }, "\(durations)")
        #expect(durations.reduce(0, +) == 1020, "\(durations)")
        // At most one frame in 2 hundredths (51), and never fewer than one in 3 (34).
        #expect((34...51).contains(durations.count), "\(durations.count) frames")
    }

    /// chafa's sixel of `sticker`'s first frame at its own size: chafa on a pseudo-terminal of
    /// 6 x 6 pixel cells (408 and 618 are multiples of 6), `--size` the sticker's side in cells.
    static func chafaSixel(_ sticker: String, side: Int) throws -> [UInt8] {
        let cells = side / 6
        let (master, pid) = try PreviewTests.spawnOnTerminal(
            ["/usr/bin/chafa", "-f", "sixels", "--animate", "off", "--size", "\(cells)x\(cells)", sticker],
            columns: cells + 4, rows: cells + 4, pixels: (6 * (cells + 4), 6 * (cells + 4)),
            environment: ["PATH=/usr/bin:/bin", "TERM=xterm-256color"])
        defer { close(master) }
        let output = PreviewTests.readToEnd(master)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        #expect(status == 0, "chafa exit status \(status)")
        guard
            let start = output.indices.first(where: {
                output[$0] == 0x1B && output.indices.contains($0 + 1) && output[$0 + 1] == 0x50
            })
        else { return [] }
        return Array(output[start...])
    }

    @Test(
        "sixel against chafa's, frame 0 at the sticker's own size: equal or better PSNR everywhere, and no more bytes wherever chafa shows every visible pixel",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/usr/bin/chafa"), "needs chafa: make test installs it"))
    func sixelAgainstChafa() throws {
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, side) in [
            ("01-bouncing-blob.png", 408), ("02-spinning-star.gif", 408), ("03-beating-heart.png", 618),
            ("04-party-popper.gif", 618), ("05-still-blob.png", 408), ("06-blob-card.jpg", 408)
        ] {
            let sticker = CLITests.samplePack.appendingPathComponent(name).path
            let ours = folder.appendingPathComponent("ours.sixel")
            let theirs = folder.appendingPathComponent("chafa.sixel")
            try Self.preview([sticker, "--graphics", "sixel"], into: ours)
            try Data(try Self.chafaSixel(sticker, side: side)).write(to: theirs)
            let oursFacts = try Self.comparisons(Self.decode("sixel", ours, reference: sticker)).first ?? [:]
            let theirFacts = try Self.comparisons(Self.decode("sixel", theirs, reference: sticker)).first ?? [:]
            #expect(oursFacts["sameSize"] as? Bool == true && theirFacts["sameSize"] as? Bool == true, "\(name)")
            #expect(oursFacts["visibilityMismatches"] as? Int == 0, "\(name): \(oursFacts)")
            let oursPSNR = oursFacts["psnr"] as? Double ?? 0
            let theirPSNR = theirFacts["psnr"] as? Double ?? 99
            #expect(oursPSNR >= theirPSNR, "\(name): ours \(oursPSNR) dB, chafa's \(theirPSNR) dB")
            // chafa leaves translucent pixels unpainted (the heart's halo, the blobs' soft
            // edges): a picture with less in it is no measure of bytes.
            if theirFacts["visibilityMismatches"] as? Int == 0 {
                let oursBytes = try Data(contentsOf: ours).count
                let theirBytes = try Data(contentsOf: theirs).count
                #expect(oursBytes <= theirBytes, "\(name): ours \(oursBytes) bytes, chafa's \(theirBytes)")
            }
        }
    }

    @Test("bytes for a whole loop against what chafa sends a frame: the terminal plays what was sent once")
    func bytesPerLoop() throws {
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let star = CLITests.samplePack.appendingPathComponent("02-spinning-star.gif").path
        let escapes = folder.appendingPathComponent("star.kitty")
        try Self.preview([star, "--graphics", "kitty"], into: escapes)
        // 16 frames of 408 x 408: raw RGBA is 666,624 bytes a frame (chafa's way, in base64 a third more).
        let size = try Data(contentsOf: escapes).count
        #expect(size < 666_624, "the whole loop in less than one raw frame: \(size) bytes")
    }
}

/// `--graphics auto` asks the terminal, in one round trip that ends at the device attributes'
/// reply: scripted replies in a pseudo-terminal, some split across writes.
@Suite("preview: asking the terminal", .timeLimit(.minutes(3)))
struct GraphicsDetectionTests {
    @Test(
        "replies parsed wherever they sit: kitty's OK, sixel in the attributes, the window's pixels",
        arguments: [
            ("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[4;600;800t\u{1B}[?62;22c", true, false, 800, 600, "kitty"),
            ("\u{1B}[?63;1;2;4;6;9;15;22c", false, true, nil, nil, "sixel"),
            ("\u{1B}_Gi=31;ENOTSUPPORTED:no\u{1B}\\\u{1B}[?62;4c", false, true, nil, nil, "sixel"),
            ("\u{1B}[?1;2c", false, false, nil, nil, "blocks"),
            ("", false, false, nil, nil, "blocks")
        ] as [(String, Bool, Bool, Int?, Int?, String)])
    func parse(reply: String, kitty: Bool, sixel: Bool, width: Int?, height: Int?, choice: String) {
        let capabilities = TerminalCapabilities.parse(Array(reply.utf8))
        #expect(capabilities.kitty == kitty && capabilities.sixel == sixel)
        #expect(capabilities.windowPixels?.width == width && capabilities.windowPixels?.height == height)
        #expect(capabilities.answered == !reply.isEmpty)
        #expect(capabilities.choice(environment: [:]).rawValue == choice)
        // iTerm2 and WezTerm are known by name where kitty's query is not answered.
        let named = capabilities.choice(environment: ["TERM_PROGRAM": "iTerm.app"]).rawValue
        #expect(named == (kitty ? "kitty" : "iterm2"))
    }

    @Test(
        "the animation probe: kitty's answer to a frame says it plays animations; silence or an error says it does not",
        arguments: [
            // kitty 0.26.5 under Xvfb, as it answered this question.
            ("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}_Gi=32,r=2;OK\u{1B}\\\u{1B}[4;400;639t\u{1B}[?62;c", true, true, false),
            // Konsole 22.12 under Xvfb: kitty's stills and sixel, the frame not answered.
            ("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[4;504;880t\u{1B}[?62;1;4c", true, false, true),
            // A terminal that refuses the frame.
            ("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}_Gi=32;EINVAL: unsupported action\u{1B}\\\u{1B}[?62;c", true, false, false),
            // Another image's answer is not the probe's.
            ("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}_Gi=320;OK\u{1B}\\\u{1B}[?62;c", true, false, false),
            // A frame answer without kitty's query answered: no kitty graphics at all.
            ("\u{1B}_Gi=32;OK\u{1B}\\\u{1B}[?62;c", false, false, false)
        ] as [(String, Bool, Bool, Bool)])
    func animationProbe(reply: String, kitty: Bool, animation: Bool, sixel: Bool) {
        let capabilities = TerminalCapabilities.parse(Array(reply.utf8))
        #expect(capabilities.kitty == kitty && capabilities.kittyAnimation == animation && capabilities.sixel == sixel)
    }

    @Test(
        "the question holds kitty's query and the animation probe (both inside tmux's passthrough in tmux), then CSI 14 t and CSI c"
    )
    func question() {
        let plain = TerminalCapabilities.question(tmux: false)
        #expect(
            plain.hasPrefix(KittyGraphics.query + KittyGraphics.animationProbe) && plain.hasSuffix("\u{1B}[14t\u{1B}[c")
        )
        // The probe stores, adds a frame to and deletes one image, number 32, answering only for the frame.
        #expect(KittyGraphics.animationProbe.components(separatedBy: "i=32,").count == 4)
        #expect(KittyGraphics.animationProbe.components(separatedBy: "q=2").count == 3)
        let wrapped = TerminalCapabilities.question(tmux: true)
        #expect(wrapped.hasPrefix("\u{1B}Ptmux;\u{1B}\u{1B}_Gi=31,") && wrapped.contains("\u{1B}\u{1B}_Ga=f,i=32,"))
    }

    /// Runs `stickers preview --detect` on a new pseudo-terminal of `pixels` (TIOCSWINSZ),
    /// answering its question with `replies` (each written once the one before is read);
    /// returns what it printed.
    static func detect(replies: [String], pixels: (Int, Int) = (0, 0), environment: [String] = []) throws -> String {
        let (master, pid) = try PreviewTests.spawnOnTerminal(
            [try PreviewTests.executable(), "preview", "--detect", CLITests.samplePack.path], columns: 80, rows: 24,
            pixels: pixels, environment: ["PATH=/usr/bin:/bin", "TERM=xterm-256color"] + environment)
        defer { close(master) }
        // Wait for the whole question (it ends with the device attributes request), then answer.
        var heard: [UInt8] = []
        PreviewTests.collect(master, onto: &heard) { $0.contains("\u{1B}[c") }
        #expect(String(decoding: heard, as: UTF8.self).contains(KittyGraphics.query), "the kitty query was asked")
        for reply in replies {
            _ = Array(reply.utf8).withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
        }
        let output = PreviewTests.readToEnd(master)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        #expect(status == 0)
        return String(decoding: heard + output, as: UTF8.self)
    }

    @Test("a kitty that answers, its reply split across writes; the cell size from the window's pixels")
    func kittyAnswers() throws {
        let output = try Self.detect(
            replies: ["\u{1B}_Gi=31;O", "K\u{1B}\\\u{1B}_Gi=32,r=2;O", "K\u{1B}\\\u{1B}[4;480;800t\u{1B}[?6", "2;22c"],
            pixels: (800, 480))
        #expect(
            output.contains("kitty (the terminal says: kitty graphics with animation; cell 10x20 px)"),
            "\(output.debugDescription)")
        let stills = try Self.detect(replies: ["\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;1;4c"], pixels: (800, 480))
        #expect(
            stills.contains("kitty (the terminal says: kitty graphics without animation and sixel; cell 10x20 px)"),
            "\(stills.debugDescription)")
    }

    @Test("a sixel terminal (xterm -ti vt340's attributes) with no pixel size: the assumed cell")
    func sixelAnswers() throws {
        let output = try Self.detect(replies: ["\u{1B}[?63;1;2;4;6;9;15;16;22;28c"])
        #expect(output.contains("sixel (the terminal says: sixel; cell 10x20 px)"), "\(output.debugDescription)")
    }

    @Test("a terminal with neither: half blocks, after one round trip; iTerm2 by TERM_PROGRAM")
    func neither() throws {
        let plain = try Self.detect(replies: ["\u{1B}[?1;2c"], pixels: (720, 480))
        #expect(plain.contains("blocks (the terminal says: no graphics; cell 9x20 px)"), "\(plain.debugDescription)")
        let iterm = try Self.detect(replies: ["\u{1B}[?62;22c"], environment: ["TERM_PROGRAM=iTerm.app"])
        #expect(iterm.contains("iterm2 (the terminal says: no graphics;"), "\(iterm.debugDescription)")
    }

    @Test("inside tmux (no passthrough to a graphics terminal): one round trip, tmux's own attributes, half blocks")
    func insideTmux() throws {
        let tmux = PreviewTests.Tmux()
        defer { tmux.stop() }
        try tmux.run(["new-session", "-d", "-s", "s", "-x", "100", "-y", "20", "bash --norc --noprofile"])
        try tmux.run([
            "send-keys", "-t", "s",
            "clear; \(try PreviewTests.executable()) preview --detect \(CLITests.samplePack.path); echo END=$?", "Enter"
        ])
        // The typed line holds "END=$?" itself: wait for the status printed after it.
        #expect(try PreviewTests.waitFor { try tmux.screen().contains { $0.contains(/END=\d/) } })
        let screen = try tmux.screen().joined(separator: "\n")
        #expect(screen.contains("blocks (the terminal says: no graphics;") && screen.contains("END=0"), "\(screen)")
    }

    @Test("with no controlling terminal: --detect says blocks, what auto draws into a pipe")
    func noTerminal() throws {
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("out.txt")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        // A session of its own with a file for output: no terminal at all.
        let pid = try PreviewTests.spawn(
            [try PreviewTests.executable(), "preview", "--detect", CLITests.samplePack.path], stdout: output.path,
            newSession: true)
        #expect(try TestProcess.wait(for: pid, arguments: ["preview", "--detect"]) == 0)
        #expect(try String(contentsOf: output, encoding: .utf8) == "blocks (no terminal to ask)\n")
    }
}

/// Playing with a graphics protocol: kitty is sent the loop once and the image deleted at the
/// end; sixel frames come one per change; Ctrl-C deletes the image and exits 130.
@Suite("preview: playing with terminal graphics", .timeLimit(.minutes(3)))
struct GraphicsPlaybackTests {
    static let star = CLITests.samplePack.appendingPathComponent("02-spinning-star.gif").path

    @Test("kitty: entered, the loop uploaded once and started, then deleted and left, in that order")
    func kittyOnce() throws {
        let result = try CLITests.runExecutable([
            "preview", Self.star, "--graphics", "kitty", "--play", "--stepped-clock", "--loops", "2", "--width", "80",
            "--height", "24"
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let text = result.stdout
        let marks = [
            "\u{1B}[?1049h", "\u{1B}_Ga=T,f=100,i=", "\u{1B}_Ga=f,", "\u{1B}_Ga=a,i=\(0x5_71C4),s=3,v=3",
            "\u{1B}_Ga=d,d=I,",
            "\u{1B}[?1049l"
        ]
        var position = text.startIndex
        for mark in marks {
            guard let found = text[position...].firstRange(of: mark) else {
                Issue.record("\(mark.debugDescription) missing or out of order")
                return
            }
            position = found.upperBound
        }
        // Each command's first chunk names the image; the chunks after it only carry the action.
        #expect(text.components(separatedBy: "a=T,f=100,i=").count == 2, "uploaded once")
        #expect(text.components(separatedBy: "a=f,i=").count == 16, "15 frames after the first")
    }

    @Test("sixel: one image a frame, each at the picture's cell, for two loops")
    func sixelFrames() throws {
        let result = try CLITests.runExecutable([
            "preview", Self.star, "--graphics", "sixel", "--play", "--stepped-clock", "--loops", "2", "--width", "80",
            "--height", "24"
        ])
        #expect(result.status == 0, "\(result.stderr)")
        // 408 px in 80 x 23 cells of 10 x 20 (the last row kept free): fits, centred at column
        // (80 - 41) / 2 + 1 and row (23 - 21) / 2 + 1; later frames from the first cell row
        // that changed.
        let text = result.stdout
        #expect(text.contains("\u{1B}[2;20H\u{1B}P0;1;0q"), "the first frame at the picture's top-left cell")
        let images = text.components(separatedBy: "\u{1B}P0;1;0q").count - 1
        #expect(images == 32, "16 frames, two loops")
        let placed = text.matches(of: /\x1B\[(\d+);20H\x1BP0;1;0q/).compactMap { Int($0.1) }
        #expect(placed.count == 32 && placed.allSatisfy { (2...22).contains($0) }, "\(placed)")
    }

    /// `stickers preview ARGUMENTS` on a pseudo-terminal that answers as Konsole 22.12 does
    /// (kitty's query OK, the animation probe unanswered, sixel, a black background): its exit
    /// status and what it played, without the capabilities question (whose probe adds a frame
    /// to image 32).
    static func playAnsweringAsKonsole(_ arguments: [String]) throws -> (status: Int32, played: String) {
        let (master, pid) = try PreviewTests.spawnOnTerminal(
            [try PreviewTests.executable(), "preview"] + arguments, columns: 100, rows: 30, pixels: (1000, 600),
            environment: ["PATH=/usr/bin:/bin", "TERM=xterm-256color"])
        defer { close(master) }
        // Each question ends with CSI c: first the capabilities, then the background.
        let replies = [
            "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[4;600;1000t\u{1B}[?62;1;4c",
            "\u{1B}]11;rgb:0000/0000/0000\u{1B}\\\u{1B}[?62;1;4c"
        ]
        var heard: [UInt8] = []
        for (number, reply) in replies.enumerated() {
            PreviewTests.collect(master, onto: &heard) { $0.components(separatedBy: "\u{1B}[c").count - 1 > number }
            _ = Array(reply.utf8).withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
        }
        heard += PreviewTests.readToEnd(master)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = String(decoding: heard, as: UTF8.self)
        let question = TerminalCapabilities.question(tmux: false)
        #expect(text.contains(question), "the capabilities were asked")
        return (status, text.replacing(question, with: ""))
    }

    /// What terminal_graphics.py decodes from `played` as pictures placed in turn.
    static func placed(_ played: String, reference: String) throws -> [String: Any] {
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let escapes = folder.appendingPathComponent("placed.kitty")
        try Data(played.utf8).write(to: escapes)
        return try TerminalGraphicsTests.decode("kitty-placed", escapes, reference: reference)
    }

    @Test(
        "a kitty-protocol terminal that plays no animation (Konsole's answers): each frame stored once, placed in turn for two loops, every one deleted at the end"
    )
    func kittyWithoutAnimation() throws {
        let (status, text) = try Self.playAnsweringAsKonsole([Self.star, "--loops", "2", "--stepped-clock"])
        #expect(status == 0, "exit status \(status)")
        #expect(!text.contains("a=f,"), "no animation frames sent")
        #expect(text.components(separatedBy: "\u{1B}_Ga=t,f=100,i=").count - 1 == 16, "each of 16 frames stored once")
        let facts = try Self.placed(text, reference: Self.star)
        let placed = TerminalGraphicsTests.comparisons(facts)
        #expect(facts["frames"] as? Int == 32, "two loops of 16 placed: \(facts["frames"] ?? "")")
        #expect(placed.allSatisfy { $0["sameSize"] as? Bool == true && $0["maxDiff"] as? Int == 0 }, "\(placed)")
        let loops = facts["loops"] as? [String: Any]
        #expect(loops?["problems"] as? [String] == [], "\(loops ?? [:])")
        #expect(loops?["stillStored"] as? Int == 0, "every stored picture deleted at the end")
    }

    @Test(
        "a pack's browser in a terminal that plays no kitty animation: pictures placed in turn, the first as the browser's still, each stored once, all deleted"
    )
    func browserWithoutAnimation() throws {
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The browser's first picture, as a kitty still in the same 100 x 30 cells of 10 x 20.
        let still = folder.appendingPathComponent("still.kitty")
        try TerminalGraphicsTests.preview(
            [CLITests.samplePack.path, "--graphics", "kitty", "--frame", "0", "--width", "100", "--height", "30"],
            into: still)
        let (status, text) = try Self.playAnsweringAsKonsole([
            CLITests.samplePack.path, "--duration", "3", "--stepped-clock"
        ])
        #expect(status == 0, "exit status \(status)")
        let facts = try Self.placed(text, reference: "kitty-still:\(still.path)")
        let placed = TerminalGraphicsTests.comparisons(facts)
        #expect((facts["frames"] as? Int ?? 0) > 2, "the browser changes in 3 s: \(facts["frames"] ?? "")")
        #expect(
            placed.first?["sameSize"] as? Bool == true && placed.first?["maxDiff"] as? Int == 0,
            "\(placed.first ?? [:])")
        let loops = facts["loops"] as? [String: Any]
        #expect(loops?["problems"] as? [String] == [], "\(loops ?? [:])")
        #expect(loops?["stillStored"] as? Int == 0, "every stored picture deleted at the end")
    }

    @Test("a window resize during kitty playback deletes the image and sends the loop again, fitted to the new window")
    func resize() throws {
        let (master, pid) = try PreviewTests.spawnOnTerminal(
            [try PreviewTests.executable(), "preview", Self.star, "--graphics", "kitty"], columns: 100, rows: 30,
            pixels: (1000, 600), environment: ["PATH=/usr/bin:/bin", "TERM=xterm-kitty"])
        defer { close(master) }
        var heard: [UInt8] = []
        /// Reads until `count` animations have been started.
        func readUntil(started count: Int) {
            PreviewTests.collect(master, onto: &heard) { $0.components(separatedBy: ",s=3,").count - 1 >= count }
        }
        readUntil(started: 1)
        // 40 x 12 cells of 10 x 20 pixels: the kernel sends SIGWINCH to the player.
        var size = winsize(ws_row: 12, ws_col: 40, ws_xpixel: 400, ws_ypixel: 240)
        _ = ioctl(master, UInt(TIOCSWINSZ), &size)
        readUntil(started: 2)
        kill(pid, SIGINT)
        heard += PreviewTests.readToEnd(master)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let text = String(decoding: heard, as: UTF8.self)
        let uploads = text.components(separatedBy: "a=T,f=100,i=")
        #expect(uploads.count == 3, "sent twice")
        #expect(uploads.count == 3 && uploads[1].contains("a=d,d=I,"), "deleted before it is sent again")
        // The second upload's PNG is 240 x 240 (its IHDR, base64 from the PNG's 12th byte on).
        if uploads.count == 3, let payload = uploads[2].split(separator: ";", maxSplits: 1).last {
            let head = Data(base64Encoded: String(payload.prefix(32))) ?? Data()
            let bytes = [UInt8](head)
            if bytes.count >= 24 {
                let width = Int(bytes[16]) << 24 | Int(bytes[17]) << 16 | Int(bytes[18]) << 8 | Int(bytes[19])
                let height = Int(bytes[20]) << 24 | Int(bytes[21]) << 16 | Int(bytes[22]) << 8 | Int(bytes[23])
                #expect(width == 240 && height == 240, "\(width)x\(height)")
            } else {
                Issue.record("no PNG header in the second upload")
            }
        }
    }

    @Test("Ctrl-C during kitty playback deletes the image and exits 130")
    func interrupted() throws {
        let (master, pid) = try PreviewTests.spawnOnTerminal(
            [try PreviewTests.executable(), "preview", Self.star, "--graphics", "kitty"], columns: 100, rows: 30,
            pixels: (1000, 600), environment: ["PATH=/usr/bin:/bin", "TERM=xterm-kitty"])
        defer { close(master) }
        // Wait for the animation's start, then interrupt.
        var heard: [UInt8] = []
        PreviewTests.collect(master, onto: &heard) { $0.contains(",s=3,") }
        kill(pid, SIGINT)
        let rest = String(decoding: PreviewTests.readToEnd(master), as: UTF8.self)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        #expect((status >> 8) & 0xFF == 130, "exit status \(status)")
        #expect(rest.contains("\u{1B}_Ga=d,d=I,i=\(0x5_71C4),q=2\u{1B}\\") && rest.hasSuffix("\u{1B}[?1049l"))
    }
}
