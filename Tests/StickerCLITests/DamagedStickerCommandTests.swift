import AnimationCodec
import Foundation
import TestSupport
import Testing

/// `render` and `transcript` with a sticker whose frame 2 of 4 does not decode: the image is
/// written with the placeholder in the sticker's place, the sticker named once on stderr,
/// exit 1, as for a sticker that cannot be read at all.
@Suite("Damaged stickers in drawings", .timeLimit(.minutes(3)))
struct DamagedStickerCommandTests {
    static func folder() throws -> URL {
        let folder = CLITests.temporaryDirectory()
        let pack = folder.appendingPathComponent("pack")
        try FileManager.default.createDirectory(at: pack, withIntermediateDirectories: true)
        var writer = APNGWriter(width: 64, height: 64, frameCount: 4, plays: 0)
        for value in [UInt8(40), 90, 140, 190] {
            writer.append(
                premultiplied: [UInt8](repeating: value, count: 64 * 64 * 4), x: 0, y: 0, width: 64, height: 64,
                delay: FrameDelay(numerator: 1, denominator: 10))
        }
        let damaged = try #require(DamagedPNG.withBrokenFrame(writer.finish(), frame: 2))
        try Data(damaged).write(to: pack.appendingPathComponent("blob.png"))
        return folder
    }

    @Test("render at 0.25 s (frame 2): written, the sticker named, exit 1; at 0.15 s: exit 0")
    func render() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pack = folder.appendingPathComponent("pack").path
        let before = try CLITests.runExecutable(["render", pack, "-o", folder.path + "/a.png", "--at", "0.15"])
        #expect(before.status == 0, "\(before.stderr)")
        let output = folder.path + "/b.png"
        let damaged = try CLITests.runExecutable(["render", pack, "-o", output, "--at", "0.25"])
        #expect(damaged.status == 1)
        #expect(FileManager.default.fileExists(atPath: output))
        let warnings = damaged.stderr.split(separator: "\n").filter {
            $0.hasPrefix("warning: blob: ") && !$0.contains("Messages does not take it")
        }
        #expect(warnings.count == 1 && warnings[0].contains("invalid block type"), "\(damaged.stderr)")
    }

    @Test(
        "preview of the pack at 0.25 s: the picture drawn, then the sticker named (exit 0, as for one unreadable at load)"
    )
    func preview() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pack = folder.appendingPathComponent("pack").path
        let result = try CLITests.runExecutable(["preview", pack, "--at", "0.25", "--width", "40", "--height", "10"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.isEmpty)
        // The 64 px blob is also named as a size Messages does not take; that line aside:
        func damage(_ stderr: String) -> [Substring] {
            stderr.split(separator: "\n").filter { !$0.contains("Messages does not take it") }
        }
        let warnings = damage(result.stderr)
        #expect(
            warnings.count == 1 && warnings[0].hasPrefix("warning: blob: ")
                && warnings[0].contains("invalid block type"),
            "\(result.stderr)")
        let early = try CLITests.runExecutable(["preview", pack, "--at", "0.1", "--width", "40", "--height", "10"])
        #expect(early.status == 0 && damage(early.stderr).isEmpty, "\(early.stderr)")
    }

    @Test(
        "preview of the file alone at 0.25 s (frame 2): the crossed-out mark drawn (a kitty still decoded by Pillow), the file named after it, exit 0"
    )
    func previewFile() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let blob = folder.appendingPathComponent("pack/blob.png").path
        func damage(_ stderr: String) -> [Substring] {
            stderr.split(separator: "\n").filter { !$0.contains("Messages does not take it") }
        }
        let result = try CLITests.runExecutable(["preview", blob, "--graphics", "kitty", "--at", "0.25"])
        #expect(result.status == 0, "\(result.stderr)")
        let warnings = damage(result.stderr)
        #expect(
            warnings.count == 1 && warnings[0].contains("blob.png") && warnings[0].contains("invalid block type"),
            "\(result.stderr)")
        let escapes = folder.appendingPathComponent("blob.kitty")
        try Data(result.stdout.utf8).write(to: escapes)
        // The mark at the picture's own 64 px: a grey square, a red cross on its diagonals.
        let scripts = CLITests.repoRoot.appendingPathComponent("Tests/Scripts").path
        let pixels = try TestProcess.capture([
            "python3", "-c",
            """
            import sys, json
            sys.path.insert(0, sys.argv[1])
            import terminal_graphics
            frames, _ = terminal_graphics.kitty(open(sys.argv[2], "rb").read())
            picture = frames[0][0]
            print(json.dumps([picture.shape[1], [int(v) for v in picture[32, 32]], [int(v) for v in picture[30, 10]]]))
            """, scripts, escapes.path
        ])
        #expect(
            pixels.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                == "[64, [255, 59, 48, 255], [200, 200, 200, 255]]", "\(pixels.stdout) \(pixels.stderr)")
        // Frame 1 decodes: drawn, nothing named.
        let early = try CLITests.runExecutable(["preview", blob, "--graphics", "kitty", "--at", "0.15"])
        #expect(early.status == 0 && damage(early.stderr).isEmpty, "\(early.stderr)")
        // The whole loop for kitty to play: frames 0 and 1, then the mark; the file named once.
        let loop = try CLITests.runExecutable(["preview", blob, "--graphics", "kitty"])
        #expect(loop.status == 0 && damage(loop.stderr).count == 1, "\(loop.stderr)")
    }

    @Test("transcript: the sticker sent and peeled at two sizes is named once, the image written, exit 1")
    func transcript() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("chat.txt")
        try "pack: pack\nme: hello\nme: sticker blob\npeel blob on 1 at 0.5,0.5 scale 0.5\n".write(
            to: script, atomically: true, encoding: .utf8)
        let output = folder.path + "/chat.png"
        let result = try CLITests.runExecutable(["transcript", script.path, "-o", output, "--at", "0.25"])
        #expect(result.status == 1)
        #expect(FileManager.default.fileExists(atPath: output))
        let warnings = result.stderr.split(separator: "\n").filter {
            $0.hasPrefix("warning: blob: ") && !$0.contains("Messages does not take it")
        }
        #expect(warnings.count == 1 && warnings[0].contains("invalid block type"), "\(result.stderr)")
        let early = try CLITests.runExecutable(["transcript", script.path, "-o", output, "--at", "0.1"])
        #expect(early.status == 0, "\(early.stderr)")
    }
}
