import Foundation
import TestSupport
import Testing

/// `stickers transcript`: every option on the sample pack and on scripts, the outputs read
/// back by Pillow.
@Suite("Option matrix: transcript", .timeLimit(.minutes(5)))
struct TranscriptCommandTests {
    static func transcript(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        try CLITests.runExecutable(["transcript"] + arguments)
    }

    /// A new empty folder.
    static func folder() throws -> URL {
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    /// Pillow's frames of `url` and the image's side in pixels worked out from them.
    static func frames(_ url: URL, width: Int) throws -> [[UInt8]] {
        let frames = try FitCommandTests.pillow(url).frames
        #expect(frames.allSatisfy { $0.count % (width * 4) == 0 })
        return frames
    }

    @Test(
        "a pack alone: the default conversation, one screen of --device at --scale, light by default and --appearance dark"
    )
    func packAlone() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let light = folder.appendingPathComponent("light.png")
        let dark = folder.appendingPathComponent("dark.png")
        let one = try Self.transcript([
            CLITests.samplePack.path, "-o", light.path, "--device", "iphone-8", "--scale", "1"
        ])
        #expect(one.status == 0, "\(one.stderr)")
        #expect(one.stdout.contains("375x667 px"), "\(one.stdout)")
        let lightPixels = try #require(try Self.frames(light, width: 375).first)
        #expect(lightPixels.count == 375 * 667 * 4)
        #expect(Array(lightPixels[0..<4]) == [255, 255, 255, 255], "a white screen")
        let two = try Self.transcript([
            CLITests.samplePack.path, "-o", dark.path, "--view", "300x500", "--scale", "2", "--appearance", "dark"
        ])
        #expect(two.status == 0, "\(two.stderr)")
        let darkPixels = try #require(try Self.frames(dark, width: 600).first)
        #expect(darkPixels.count == 600 * 1000 * 4)
        #expect(Array(darkPixels[0..<4]) == [0, 0, 0, 255], "a black screen")
    }

    @Test("a sticker that cannot be read is a crossed-out square named on stderr; the rest is drawn, exit 1")
    func unreadableSticker() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pack = folder.appendingPathComponent("pack")
        try FileManager.default.createDirectory(at: pack, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: CLITests.samplePack.appendingPathComponent("05-still-blob.png"),
            to: pack.appendingPathComponent("a.png"))
        let output = folder.appendingPathComponent("t.png")
        let whole = try Self.transcript([pack.path, "-o", output.path, "--scale", "1", "--all"])
        #expect(whole.status == 0, "\(whole.stderr)")
        // The placeholder is grey (200, 200, 200) crossed in red (255, 59, 48), as the browser's cells.
        func count(_ colour: [UInt8]) throws -> Int {
            let pixels = try #require(try Self.frames(output, width: 393).first)
            return stride(from: 0, to: pixels.count, by: 4).filter { Array(pixels[$0..<$0 + 4]) == colour }.count
        }
        let greyBefore = try count([200, 200, 200, 255])
        try Data().write(to: pack.appendingPathComponent("b.png"))
        let broken = try Self.transcript([pack.path, "-o", output.path, "--scale", "1", "--all"])
        #expect(broken.status == 1, "\(broken.stdout)\(broken.stderr)")
        #expect(broken.stderr.contains("warning: b: ") && broken.stderr.contains("empty"), "\(broken.stderr)")
        #expect(broken.stdout.contains("393x"), "written: \(broken.stdout)")
        // A sticker's default size is 408 px, 136 pt: at 1x its square is 136 px, most of it grey.
        #expect(try count([200, 200, 200, 255]) - greyBefore >= 136 * 136 / 2)
        #expect(try count([255, 59, 48, 255]) >= 136 * 2)

        // A peel of the unreadable sticker onto the sent one: its placeholder is over it, as a
        // peel is over everything, so the middle of the crossed square is its red cross.
        let script = folder.appendingPathComponent("peel.txt")
        try "pack: \(pack.path)\nme: sticker a\npeel b on 1 at 0.5,0.5\n".write(
            to: script, atomically: true, encoding: .utf8)
        let peeled = try Self.transcript([script.path, "-o", output.path, "--scale", "1", "--all"])
        #expect(peeled.status == 1, "\(peeled.stderr)")
        let pixels = try #require(try Self.frames(output, width: 393).first)
        let grey = stride(from: 0, to: pixels.count, by: 4).filter {
            Array(pixels[$0..<$0 + 4]) == [200, 200, 200, 255]
        }
        .map { ($0 / 4 % 393, $0 / 4 / 393) }
        let (left, right) = (try #require(grey.map(\.0).min()), try #require(grey.map(\.0).max()))
        let (top, bottom) = (try #require(grey.map(\.1).min()), try #require(grey.map(\.1).max()))
        let middle = (left + right) / 2 + (top + bottom) / 2 * 393
        #expect(Array(pixels[middle * 4..<middle * 4 + 4]) == [255, 59, 48, 255], "the sent sticker hides the peel")
    }

    @Test("--all draws the whole conversation, taller than one screen; --at picks the instant of the one clock")
    func allAndAt() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let screen = folder.appendingPathComponent("screen.png")
        let all = folder.appendingPathComponent("all.png")
        #expect(try Self.transcript([CLITests.samplePack.path, "-o", screen.path, "--scale", "1"]).status == 0)
        let result = try Self.transcript([CLITests.samplePack.path, "-o", all.path, "--scale", "1", "--all"])
        #expect(result.status == 0, "\(result.stderr)")
        let screenPixels = try #require(try Self.frames(screen, width: 393).first)
        let allPixels = try #require(try Self.frames(all, width: 393).first)
        #expect(screenPixels.count == 393 * 852 * 4)
        #expect(allPixels.count > screenPixels.count, "the sample pack's conversation is longer than one screen")
        // One screen shows the latest messages: its rows are the --all image's last 852 rows
        // (the stickers, drawn at the same instant, among them), down to the last bubbles,
        // whose fill follows their place on the screen; the first messages are not on it.
        let rowBytes = 393 * 4
        let tail = Array(allPixels.suffix(852 * rowBytes))
        #expect(
            Array(screenPixels.prefix(700 * rowBytes)) == Array(tail.prefix(700 * rowBytes)),
            "the screen is the conversation's end")
        #expect(
            Array(allPixels.prefix(rowBytes * 40)) != Array(screenPixels.prefix(rowBytes * 40)),
            "the screen is scrolled")
    }

    /// A pack of one sticker whose frames are solid red, green and blue, stored for 5, 5 and
    /// 200 ms (written by Pillow), and a script that sends it: Messages shows a delay under
    /// 11 ms for 100 ms, so the sticker is red from 0 to 100 ms, green to 200, blue to 400.
    static func timingScript(in folder: URL) throws -> URL {
        let pack = folder.appendingPathComponent("pack")
        try FileManager.default.createDirectory(at: pack, withIntermediateDirectories: true)
        try Python.run(
            """
            import sys
            from PIL import Image
            frames = [Image.new("RGBA", (300, 300), c) for c in [(255, 0, 0, 255), (0, 255, 0, 255), (0, 0, 255, 255)]]
            frames[0].save(sys.argv[1], save_all=True, append_images=frames[1:], duration=[5, 5, 200], loop=0)
            """, [pack.appendingPathComponent("timing.png").path])
        let script = folder.appendingPathComponent("chat.txt")
        try "pack: pack\nthem: hi\nme: sticker timing\n".write(to: script, atomically: true, encoding: .utf8)
        return script
    }

    @Test("--at picks the instant: the sticker's colour is the one its delays give then, and nothing else moves")
    func at() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = try Self.timingScript(in: folder)
        var pictures: [Picture] = []
        for (instant, colour) in [
            ("0s", Colour(255, 0, 0)), ("0.15s", Colour(0, 255, 0)), ("0.35s", Colour(0, 0, 255)),
            ("450ms", Colour(255, 0, 0))
        ] {
            let out = folder.appendingPathComponent("at-\(instant).png")
            let result = try Self.transcript([script.path, "-o", out.path, "--scale", "1", "--at", instant])
            #expect(result.status == 0, "\(result.stderr)")
            let picture = try Pillow.image(out)
            let painted = picture.pixels.indices.filter {
                $0 % 4 == 0 && picture.pixel(($0 / 4) % picture.width, ($0 / 4) / picture.width) == colour
            }
            #expect(painted.count >= 100 * 100, "at \(instant): \(painted.count) pixels of \(colour)")
            pictures.append(picture)
        }
        // Between two instants only the sticker's pixels change, and they all change.
        for picture in pictures.dropFirst() {
            let changed = stride(from: 0, to: picture.pixels.count, by: 4).filter {
                picture.pixels[$0..<$0 + 4] != pictures[0].pixels[$0..<$0 + 4]
            }
            let xs = changed.map { ($0 / 4) % picture.width }
            let ys = changed.map { ($0 / 4) / picture.width }
            guard let (x0, x1, y0, y1) = xs.isEmpty ? nil : (xs.min()!, xs.max()!, ys.min()!, ys.max()!) else {
                continue
            }
            // A full rectangle (the sticker's square) or nothing (450 ms shows the 0 ms frame).
            #expect(
                changed.count == (x1 - x0 + 1) * (y1 - y0 + 1) && x1 - x0 == y1 - y0,
                "\(changed.count) pixels in \(x0)...\(x1) x \(y0)...\(y1)")
        }
        #expect(pictures[3].pixels == pictures[0].pixels, "the sticker loops: 450 ms shows what 50 ms shows")
    }

    @Test("an .apng past 10,000 frame changes is a usage error naming a shorter --duration; nothing is written")
    func durationPastFrameCap() throws {
        let folder = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let apng = folder.appendingPathComponent("long.apng")
        // The sample pack's star and blob change every 60-80 ms: 2,000 s holds far over 10,000 changes.
        let result = try Self.transcript([
            CLITests.samplePack.path, "-o", apng.path, "--scale", "1", "--duration", "2000s"
        ])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(
            result.stderr.contains("more than 10,000 times") && result.stderr.contains("pass --duration "),
            "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: apng.path))
    }

    @Test("--animate (or an .apng output) writes an animation of --duration; a .png with --animate is refused")
    func animate() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let apng = folder.appendingPathComponent("chat.apng")
        let result = try Self.transcript([
            CLITests.samplePack.path, "-o", apng.path, "--scale", "1", "--animate", "--duration", "1s",
            "--progress", "none"
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let decoded = try FitCommandTests.pillow(apng)
        #expect(decoded.frames.count > 2)
        #expect(abs(decoded.durationsMs.reduce(0, +) - 1000) < 1, "\(decoded.durationsMs)")
        // The timing sticker: a frame each time it changes colour (0, 100, 200, 400, 500, 600,
        // 800, 900 ms), each lasting until the next change or the end of the second.
        let script = try Self.timingScript(in: folder)
        let timed = folder.appendingPathComponent("timing.apng")
        let timing = try Self.transcript([
            script.path, "-o", timed.path, "--scale", "1", "--animate", "--duration", "1s", "--progress", "none"
        ])
        #expect(timing.status == 0, "\(timing.stderr)")
        let (frames, durations) = try Pillow.animation(timed)
        #expect(durations == [100, 100, 200, 100, 100, 200, 100, 100], "\(durations)")
        let colours = [Colour(255, 0, 0), Colour(0, 255, 0), Colour(0, 0, 255)]
        for (index, frame) in frames.enumerated() {
            let expected = colours[[0, 1, 2, 0, 1, 2, 0, 1][min(index, 7)]]
            // The sticker is drawn at 100 pt: at least 100 x 100 pixels of its colour.
            let painted = (0..<(frame.width * frame.height)).filter {
                frame.pixel($0 % frame.width, $0 / frame.width) == expected
            }.count
            #expect(painted >= 100 * 100, "frame \(index): \(painted) pixels of \(expected)")
        }
        let refused = try Self.transcript([
            CLITests.samplePack.path, "-o", folder.appendingPathComponent("x.png").path, "--animate"
        ])
        #expect(refused.status == 64 && refused.stderr.contains("--animate writes an APNG"), "\(refused.stderr)")
        let endless = try Self.transcript([CLITests.samplePack.path, "-o", apng.path, "--duration", "1e16s"])
        #expect(endless.status == 64 && endless.stderr.contains("from 1ms to an hour"), "\(endless.stderr)")
    }

    @Test("a script: its pack relative to it, a mistake reported with its line, a sticker the pack lacks too")
    func scripts() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("chat.txt")
        try """
        pack: \(CLITests.samplePack.path)
        them: Are we still on for tonight?
        me: yes!! 🎉
        me: sticker 01-bouncing-blob
        peel 02-spinning-star on 1 at 0.8,0.2 scale 0.6 rotate -12
        """.write(to: script, atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("chat.png")
        let good = try Self.transcript([script.path, "-o", out.path, "--scale", "1"])
        #expect(good.status == 0, "\(good.stderr)")
        #expect(good.stdout.contains("3 messages"), "\(good.stdout)")
        // A script named in capitals (saved on Windows, say) is a script too.
        let capitals = folder.appendingPathComponent("CHAT.TXT")
        try FileManager.default.copyItem(at: script, to: capitals)
        let shouted = try Self.transcript([capitals.path, "-o", out.path, "--scale", "1"])
        #expect(shouted.status == 0 && shouted.stdout.contains("3 messages"), "\(shouted.stderr)")

        try "them: hi\nme: sticker\n".write(to: script, atomically: true, encoding: .utf8)
        let bad = try Self.transcript([script.path, "-o", out.path])
        #expect(bad.status == 1 && bad.stderr.contains("\(script.path): line 2:"), "\(bad.stderr)")

        try "pack: \(CLITests.samplePack.path)\nthem: hi\n\nme: sticker nope\n".write(
            to: script, atomically: true, encoding: .utf8)
        let unknown = try Self.transcript([script.path, "-o", out.path])
        #expect(
            unknown.status == 1
                && unknown.stderr.contains("\(script.path): line 4: the pack has no sticker named nope"),
            "\(unknown.stderr)")
    }

    @Test(
        "a script saved with a byte-order mark reads; template and pack mistakes name their line; the output is no input"
    )
    func scriptMistakes() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("chat.txt")
        let out = folder.appendingPathComponent("chat.png")
        // Notepad's UTF-8 starts with EF BB BF.
        try Data([0xEF, 0xBB, 0xBF] + Array("me: hi\n".utf8)).write(to: script)
        let bom = try Self.transcript([script.path, "-o", out.path, "--scale", "1"])
        #expect(bom.status == 0 && bom.stdout.contains("1 message"), "\(bom.stderr)")

        for (text, expected) in [
            (
                "them: hi\nme: message image-title=\"Title only\"\n",
                "line 2: `image-title` and `image-subtitle` go with `image=FILE`"
            ),
            ("them: hi\n\nme: message image=nope.png caption=x\n", "line 3: nope.png: no such file"),
            ("# a chat\npack: nothere\nme: sticker a\n", "line 2: \(folder.path)/nothere: no such file")
        ] {
            try text.write(to: script, atomically: true, encoding: .utf8)
            let result = try Self.transcript([script.path, "-o", out.path])
            #expect(
                result.status == 1 && result.stderr.contains("\(script.path): \(expected)"), "\(text): \(result.stderr)"
            )
        }

        // -o naming a sticker drawn is refused, and the art is left as it was.
        let pack = folder.appendingPathComponent("pack")
        try FileManager.default.createDirectory(at: pack, withIntermediateDirectories: true)
        let copy = pack.appendingPathComponent("blob.png")
        try FileManager.default.copyItem(at: CLITests.samplePack.appendingPathComponent("05-still-blob.png"), to: copy)
        let art = try Data(contentsOf: copy)
        // A template message's image too.
        try "me: message image=pack/blob.png caption=x\n".write(to: script, atomically: true, encoding: .utf8)
        let overImage = try Self.transcript([script.path, "-o", copy.path])
        #expect(overImage.status == 1 && overImage.stderr.contains("an input"), "\(overImage.stderr)")
        // A background image too.
        let photo = folder.appendingPathComponent("photo.png")
        try FileManager.default.copyItem(at: copy, to: photo)
        for command in ["render", "sheet"] {
            let overBackground = try CLITests.runExecutable([
                command, copy.path, "-o", photo.path, "--background", photo.path
            ])
            #expect(
                overBackground.status == 1 && overBackground.stderr.contains("an input"), "\(overBackground.stderr)")
        }
        for (command, input) in [("render", copy), ("sheet", copy), ("filmstrip", copy), ("transcript", pack)] {
            let result = try CLITests.runExecutable([command, input.path, "-o", copy.path])
            #expect(result.status == 1 && result.stderr.contains("an input"), "\(command): \(result.stderr)")
            #expect(try Data(contentsOf: copy) == art, "\(command) left the art as it was")
        }
    }

    @Test(
        "text no font here draws is named with its line and code points, drawn as boxes, exit 0: Inter has no Hebrew, Noto Color Emoji has the waving hand; a caption cut short is named for what it draws"
    )
    func missingGlyphsNamed() throws {
        try #require(
            FileManager.default.fileExists(atPath: "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"),
            "fonts-noto-color-emoji is installed by make deps")
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("chat.txt")
        try """
        pack: \(CLITests.samplePack.path)
        them: hi 👋🏽 שלום
        me: Hello again, café\u{200F}, a word\u{2060}joiner (a right-to-left mark and a word joiner draw nothing)
        me: message caption="תודה"
        them: message caption="\(String(repeating: "a caption too long for two lines ", count: 20))סוף"
        """.write(to: script, atomically: true, encoding: .utf8)
        let result = try Self.transcript([script.path, "-o", folder.appendingPathComponent("chat.png").path])
        #expect(result.status == 0, "\(result.stderr)")
        let warnings = result.stderr.split(separator: "\n").filter { $0.hasPrefix("warning:") }
        #expect(
            warnings == [
                "warning: line 2: שלום (U+05E9 U+05DC U+05D5 U+05DD) is drawn as boxes: Inter and Noto Color Emoji have no glyph for it",
                // A caption is named as any text; one cut short by its ellipsis before the
                // Hebrew does not draw it, so it is not named.
                "warning: line 4: תודה (U+05EA U+05D5 U+05D3 U+05D4) is drawn as boxes: Inter and Noto Color Emoji have no glyph for it"
                // The Hebrew is in its order (FriBidi is installed by make deps), so no line is
                // named for reading backwards.
            ], "\(result.stderr)")
    }

    @Test(
        "stickers sharing a name (a.png, a.gif) are each sent by the pack's conversation; a script picks one by its file's name, and the bare name is an error naming both; filmstrip likewise"
    )
    func sharedNames() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pack = folder.appendingPathComponent("dup")
        try FileManager.default.createDirectory(at: pack, withIntermediateDirectories: true)
        // Pillow writes three opaque squares of colours nothing else on the screen has.
        let make = """
            import sys
            from PIL import Image
            folder = sys.argv[1]
            Image.new("RGBA", (408, 408), (255, 0, 255, 255)).save(folder + "/a.png")
            Image.new("RGB", (408, 408), (0, 200, 0)).save(folder + "/a.gif")
            Image.new("RGBA", (408, 408), (255, 128, 0, 255)).save(folder + "/b.png")
            """
        try #require(try TestProcess.capture(["python3", "-c", make, pack.path]).status == 0)
        /// How many pixels of `url` are within 8 of each colour, by Pillow.
        func counts(_ url: URL) throws -> [Int] {
            let probe = """
                import sys
                from PIL import Image
                image = Image.open(sys.argv[1]).convert("RGB")
                colours = [(255, 0, 255), (0, 200, 0), (255, 128, 0)]
                near = lambda p, c: all(abs(p[i] - c[i]) <= 8 for i in range(3))
                pixels = list(image.getdata())
                print(" ".join(str(sum(1 for p in pixels if near(p, c))) for c in colours))
                """
            let result = try TestProcess.capture(["python3", "-c", probe, url.path])
            return result.stdout.split(separator: " ").compactMap {
                Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
            }
        }
        // The pack's own conversation sends each of the three once (136 x 136 pt at 1x).
        let screen = folder.appendingPathComponent("screen.png")
        let drawn = try Self.transcript([pack.path, "-o", screen.path, "--scale", "1", "--all"])
        #expect(drawn.status == 0, "\(drawn.stderr)")
        let shown = try counts(screen)
        #expect(shown.count == 3 && shown.allSatisfy { $0 >= 136 * 136 }, "magenta, green, orange pixels: \(shown)")

        let script = folder.appendingPathComponent("chat.txt")
        try "pack: dup\nme: sticker a.png\nthem: sticker b\n".write(to: script, atomically: true, encoding: .utf8)
        let picked = try Self.transcript([script.path, "-o", screen.path, "--scale", "1", "--all"])
        #expect(picked.status == 0, "\(picked.stderr)")
        let pickedCounts = try counts(screen)
        #expect(
            pickedCounts.count == 3 && pickedCounts[0] >= 136 * 136 && pickedCounts[1] == 0
                && pickedCounts[2] >= 136 * 136, "magenta, green, orange pixels: \(pickedCounts)")

        try "pack: dup\nme: sticker a\n".write(to: script, atomically: true, encoding: .utf8)
        let bare = try Self.transcript([script.path, "-o", screen.path])
        #expect(bare.status != 0, "\(bare.stderr)")
        #expect(bare.stderr.contains("line 2: 2 stickers are named a: write a.gif or a.png"), "\(bare.stderr)")

        let strip = folder.appendingPathComponent("strip.png")
        let ambiguous = try CLITests.runExecutable(["filmstrip", pack.path, "--sticker", "a", "-o", strip.path])
        #expect(ambiguous.status != 0 && ambiguous.stderr.contains("a.gif or a.png"), "\(ambiguous.stderr)")
        #expect(!FileManager.default.fileExists(atPath: strip.path))
        let one = try CLITests.runExecutable(["filmstrip", pack.path, "--sticker", "a.png", "-o", strip.path])
        #expect(one.status == 0, "\(one.stderr)")
        let stripCounts = try counts(strip)
        #expect(stripCounts.count == 3 && stripCounts[0] > 0 && stripCounts[1] == 0, "\(stripCounts)")
    }

    @Test("a character asking for emoji presentation (VS16) is drawn in colour: the red heart is red")
    func emojiPresentation() throws {
        try #require(
            FileManager.default.fileExists(atPath: "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"),
            "fonts-noto-color-emoji is installed by make deps")
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("heart.txt")
        // U+2764 U+FE0F: Inter has a text heart for U+2764, drawn in the bubble's text colour.
        try "them: \u{2764}\u{FE0F}\n".write(to: script, atomically: true, encoding: .utf8)
        let out = folder.appendingPathComponent("heart.png")
        let result = try Self.transcript([script.path, "-o", out.path, "--scale", "1"])
        #expect(result.status == 0, "\(result.stderr)")
        // Pillow counts the strongly red pixels: the grey bubble and black text have none.
        let probe = """
            import sys
            from PIL import Image
            image = Image.open(sys.argv[1]).convert("RGB")
            print(sum(1 for r, g, b in image.getdata() if r > 180 and g < 90 and b < 90))
            """
        let red = try TestProcess.capture(["python3", "-c", probe, out.path])
        let count = Int(red.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(count > 50, "red pixels: \(red.stdout) \(red.stderr)")
    }

    @Test("--font sets text in another file, and a missing one is named; the limits apply to the stickers")
    func fontAndLimits() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("font.png")
        // --font sets all text in the file named: Inter Regular and Inter Bold draw different
        // pictures (an ignored option would draw the same one twice), and both differ from the
        // default, which sets some text in Inter SemiBold.
        let plain = folder.appendingPathComponent("plain.png")
        let regular = folder.appendingPathComponent("regular.png")
        #expect(try Self.transcript([CLITests.samplePack.path, "-o", plain.path, "--scale", "1"]).status == 0)
        #expect(
            try Self.transcript([
                CLITests.samplePack.path, "-o", regular.path, "--scale", "1",
                "--font", "/usr/share/fonts/opentype/inter/Inter-Regular.otf"
            ]).status == 0)
        let other = "/usr/share/fonts/opentype/inter/Inter-Bold.otf"
        let bold = try Self.transcript([CLITests.samplePack.path, "-o", out.path, "--scale", "1", "--font", other])
        #expect(bold.status == 0, "\(bold.stderr)")
        let (plainBytes, regularBytes, boldBytes) = try (
            Data(contentsOf: plain), Data(contentsOf: regular), Data(contentsOf: out)
        )
        #expect(boldBytes != regularBytes, "Inter Bold and Inter Regular draw the same picture")
        #expect(regularBytes != plainBytes && boldBytes != plainBytes, "--font changes nothing from the default")
        let missing = try Self.transcript([CLITests.samplePack.path, "-o", out.path, "--font", "/nonexistent/font.otf"])
        #expect(missing.status == 1 && missing.stderr.contains("/nonexistent/font.otf"), "\(missing.stderr)")
        // A FIFO would hold FreeType's open for ever: it is named and refused at once.
        let fifo = folder.appendingPathComponent("font.fifo").path
        #expect(mkfifo(fifo, 0o644) == 0)
        let piped = try Self.transcript([CLITests.samplePack.path, "-o", out.path, "--font", fifo])
        #expect(
            piped.status == 1 && piped.stderr == "Error: --font \(fifo): is a FIFO (named pipe), not a font file\n",
            "\(piped.stderr)")
        let limited = try Self.transcript([CLITests.samplePack.path, "-o", out.path, "--max-file", "100"])
        let first = CLITests.samplePack.appendingPathComponent("01-bouncing-blob.png")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: first.path)[.size] as? Int)
        // Each sticker over the limit is named and drawn as a placeholder.
        #expect(limited.status == 1, "\(limited.stderr)")
        #expect(
            limited.stderr.split(separator: "\n").first
                == "warning: 01-bouncing-blob: \(first.path): \(size) bytes, more than the 100 bytes StickerKit reads for a sticker (--max-file)",
            "\(limited.stderr)")
    }
}
