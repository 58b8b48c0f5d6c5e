import Foundation
import Testing

/// `stickers transcript`: every option on the sample pack and on scripts, the outputs read
/// back by Pillow.
@Suite("Option matrix: transcript", .timeLimit(.minutes(2)))
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

    @Test("a pack alone: the default conversation, one screen of --device at --scale, light by default and --appearance dark")
    func packAlone() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let light = folder.appendingPathComponent("light.png"), dark = folder.appendingPathComponent("dark.png")
        let one = try Self.transcript([CLITests.samplePack.path, "-o", light.path, "--device", "iphone-8", "--scale", "1"])
        #expect(one.status == 0, "\(one.stderr)")
        #expect(one.stdout.contains("375x667 px"), "\(one.stdout)")
        let lightPixels = try #require(try Self.frames(light, width: 375).first)
        #expect(lightPixels.count == 375 * 667 * 4)
        #expect(Array(lightPixels[0..<4]) == [255, 255, 255, 255], "a white screen")
        let two = try Self.transcript([CLITests.samplePack.path, "-o", dark.path, "--view", "300x500", "--scale", "2", "--appearance", "dark"])
        #expect(two.status == 0, "\(two.stderr)")
        let darkPixels = try #require(try Self.frames(dark, width: 600).first)
        #expect(darkPixels.count == 600 * 1000 * 4)
        #expect(Array(darkPixels[0..<4]) == [0, 0, 0, 255], "a black screen")
    }

    @Test("--all draws the whole conversation, taller than one screen; --at picks the instant of the one clock")
    func allAndAt() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let screen = folder.appendingPathComponent("screen.png"), all = folder.appendingPathComponent("all.png")
        #expect(try Self.transcript([CLITests.samplePack.path, "-o", screen.path, "--scale", "1"]).status == 0)
        let result = try Self.transcript([CLITests.samplePack.path, "-o", all.path, "--scale", "1", "--all"])
        #expect(result.status == 0, "\(result.stderr)")
        let screenPixels = try #require(try Self.frames(screen, width: 393).first)
        let allPixels = try #require(try Self.frames(all, width: 393).first)
        #expect(screenPixels.count == 393 * 852 * 4)
        #expect(allPixels.count > screenPixels.count, "the sample pack's conversation is longer than one screen")
        // One screen shows the latest messages: its bottom rows hold what the --all image's
        // bottom rows hold (the "Delivered" label's grey among them), not the first messages.
        #expect(Array(allPixels.prefix(393 * 4 * 40)) != Array(screenPixels.prefix(393 * 4 * 40)), "the screen is scrolled")

        let later = folder.appendingPathComponent("later.png")
        #expect(try Self.transcript([CLITests.samplePack.path, "-o", later.path, "--scale", "1", "--at", "0.35s"]).status == 0)
        let moved = try Self.frames(later, width: 393).first != screenPixels
        #expect(moved, "an animated sticker moved")
    }

    @Test("--animate (or an .apng output) writes an animation of --duration; a .png with --animate is refused")
    func animate() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let apng = folder.appendingPathComponent("chat.apng")
        let result = try Self.transcript([CLITests.samplePack.path, "-o", apng.path, "--scale", "1", "--animate", "--duration", "1s",
                                          "--progress", "none"])
        #expect(result.status == 0, "\(result.stderr)")
        let decoded = try FitCommandTests.pillow(apng)
        #expect(decoded.frames.count > 2)
        #expect(abs(decoded.durationsMs.reduce(0, +) - 1000) < 1, "\(decoded.durationsMs)")
        let refused = try Self.transcript([CLITests.samplePack.path, "-o", folder.appendingPathComponent("x.png").path, "--animate"])
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

        try "them: hi\nme: sticker\n".write(to: script, atomically: true, encoding: .utf8)
        let bad = try Self.transcript([script.path, "-o", out.path])
        #expect(bad.status == 1 && bad.stderr.contains("line 2:"), "\(bad.stderr)")

        try "pack: \(CLITests.samplePack.path)\nthem: hi\n\nme: sticker nope\n".write(to: script, atomically: true, encoding: .utf8)
        let unknown = try Self.transcript([script.path, "-o", out.path])
        #expect(unknown.status == 1 && unknown.stderr.contains("line 4: the pack has no sticker named nope"), "\(unknown.stderr)")
    }

    @Test("--font sets text in another file, and a missing one is named; the limits apply to the stickers")
    func fontAndLimits() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("font.png")
        // --font sets all text in the file named: Inter Regular and Inter Bold draw different
        // pictures (an ignored option would draw the same one twice), and both differ from the
        // default, which sets some text in Inter SemiBold.
        let plain = folder.appendingPathComponent("plain.png"), regular = folder.appendingPathComponent("regular.png")
        #expect(try Self.transcript([CLITests.samplePack.path, "-o", plain.path, "--scale", "1"]).status == 0)
        #expect(try Self.transcript([CLITests.samplePack.path, "-o", regular.path, "--scale", "1",
                                     "--font", "/usr/share/fonts/opentype/inter/Inter-Regular.otf"]).status == 0)
        let other = "/usr/share/fonts/opentype/inter/Inter-Bold.otf"
        let bold = try Self.transcript([CLITests.samplePack.path, "-o", out.path, "--scale", "1", "--font", other])
        #expect(bold.status == 0, "\(bold.stderr)")
        let (plainBytes, regularBytes, boldBytes) = try (Data(contentsOf: plain), Data(contentsOf: regular), Data(contentsOf: out))
        #expect(boldBytes != regularBytes, "Inter Bold and Inter Regular draw the same picture")
        #expect(regularBytes != plainBytes && boldBytes != plainBytes, "--font changes nothing from the default")
        let missing = try Self.transcript([CLITests.samplePack.path, "-o", out.path, "--font", "/nonexistent/font.otf"])
        #expect(missing.status == 1 && missing.stderr.contains("/nonexistent/font.otf"), "\(missing.stderr)")
        let limited = try Self.transcript([CLITests.samplePack.path, "-o", out.path, "--max-file", "100"])
        #expect(limited.status == 1 && limited.stderr.contains("100"), "\(limited.stderr)")
    }
}
