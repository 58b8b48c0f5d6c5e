import Foundation
import Testing
import TestSupport

/// Telegram's formats through every command: a `.tgs` written here (a red square moving
/// across, the geometry known) and a VP9 `.webm` with alpha made by ffmpeg, in one folder.
@Suite("Telegram formats: every command reads .tgs and .webm", .timeLimit(.minutes(3)))
struct TelegramCommandTests {
    /// The moving red square (``LottieDocuments/movingSquare``): 64 x 64, 30 frames at 30 fps.
    static let square = LottieDocuments.movingSquare

    /// The folder: square.tgs (gzip by Python's own module) and clip.webm (96 x 96, 12 frames at
    /// 24 fps, VP9 with an alpha disc).
    static let pack: Result<URL, Error> = Result {
        // Removed at exit with square.json beside the pack.
        let folder = RunFolders.removedAtExit(CLITests.temporaryDirectory()).appendingPathComponent("telegram")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let json = folder.deletingLastPathComponent().appendingPathComponent("square.json")
        try Data(square.utf8).write(to: json)
        let gzip = try TestProcess.run(["python3", "-c", "import gzip,sys; open(sys.argv[2],'wb').write(gzip.compress(open(sys.argv[1],'rb').read()))",
                                        json.path, folder.appendingPathComponent("square.tgs").path])
        try #require(gzip == 0)
        let ffmpeg = try TestProcess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=96x96:rate=24:duration=0.5",
                                          "-vf", "format=yuva420p,geq=lum='lum(X,Y)':cb='cb(X,Y)':cr='cr(X,Y)':a='if(lt(hypot(X-48,Y-48),40),255,0)'",
                                          "-c:v", "libvpx-vp9", "-pix_fmt", "yuva420p", folder.appendingPathComponent("clip.webm").path])
        try #require(ffmpeg == 0)
        return folder
    }

    static func path(_ name: String) throws -> String { try pack.get().appendingPathComponent(name).path }

    @Test("info: format, canvas, frames, frame rate and codec")
    func info() throws {
        let tgs = try CLITests.runExecutable(["info", try Self.path("square.tgs")])
        #expect(tgs.status == 0, "\(tgs.stderr)")
        for line in ["format:     lottie", "canvas:     64x64", "frames:     30", "frame rate: 30 fps", "plays: forever", "gzip: true"] {
            #expect(tgs.stdout.contains(line), "\(line) in \(tgs.stdout)")
        }
        let webm = try CLITests.runExecutable(["info", try Self.path("clip.webm")])
        #expect(webm.status == 0, "\(webm.stderr)")
        for line in ["format:     webm", "canvas:     96x96", "frames:     12", "codec: VP9", "alpha: true"] {
            #expect(webm.stdout.contains(line), "\(line) in \(webm.stdout)")
        }
    }

    @Test("frames: one PNG a frame, read back by Pillow with the square where the geometry puts it")
    func frames() throws {
        let out = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLITests.runExecutable(["frames", try Self.path("square.tgs"), "--out", out.path])
        #expect(result.status == 0, "\(result.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".png") }.sorted()
        #expect(files.count == 30)
        // Frame 15: the centre at (32, 32), so (32, 32) is red and (16, 32) is clear.
        let picture = try Pillow.animation(out.appendingPathComponent(files[15])).frames[0]
        #expect(picture.pixel(32, 32) == Colour(255, 0, 0, 255))
        #expect(picture.pixel(16, 32).a == 0)
    }

    @Test("validate: a format error that names stickers fit, exit 1")
    func validate() throws {
        let result = try CLITests.runExecutable(["validate", try Self.pack.get().path])
        #expect(result.status == 1)
        for name in ["square.tgs", "clip.webm"] {
            #expect(result.stdout.contains("error [format]") && result.stdout.contains("\(name) is not PNG, APNG, GIF or JPEG"), "\(result.stdout)")
        }
        #expect(result.stdout.components(separatedBy: "`stickers fit` converts it").count == 3, "\(result.stdout)")
    }

    @Test("render, sheet, filmstrip and preview (one frame) draw them")
    func drawing() throws {
        let out = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let folder = try Self.pack.get().path
        for arguments in [["render", folder, "-o", out.appendingPathComponent("render.png").path],
                          ["render", folder, "--animate", "--duration", "1", "-o", out.appendingPathComponent("render.apng").path],
                          ["sheet", folder, "-o", out.appendingPathComponent("sheet.png").path],
                          ["filmstrip", try Self.path("clip.webm"), "-o", out.appendingPathComponent("strip.png").path]] {
            let result = try CLITests.runExecutable(arguments)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
            #expect(FileManager.default.fileExists(atPath: arguments.last!), "\(arguments)")
            #expect(!result.stderr.contains("unreadable") && !result.stdout.contains("unreadable"), "\(arguments): \(result.stdout)")
        }
        // The sheet shows the square's first frame on white: red where the square is.
        let sheet = try Pillow.animation(out.appendingPathComponent("sheet.png")).frames[0]
        #expect(sheet.width > 0)
        let preview = try CLITests.runExecutable(["preview", try Self.path("square.tgs"), "--frame", "15", "--width", "32", "--height", "16", "--colors", "truecolor"])
        #expect(preview.status == 0, "\(preview.stderr)")
        // Red cells (truecolour 255;0;0) in the middle of the frame.
        #expect(preview.stdout.contains("255;0;0"), "\(preview.stdout.prefix(400))")
    }

    @Test("fit: APNG under the budget that validates; the Lottie square drawn at 408 px, not scaled")
    func fit() throws {
        let out = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let catalog = out.appendingPathComponent("Telegram.xcstickers")
        let result = try CLITests.runExecutable(["fit", try Self.pack.get().path, "-o", catalog.path, "--json"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let report = try FitCommandTests.report(result.stdout)
        let stickers = try #require(report["stickers"] as? [[String: Any]])
        #expect(stickers.count == 2)
        let square = try #require(stickers.first { $0["name"] as? String == "square" })
        let steps = (square["steps"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
        #expect(!steps.contains("scale"), "a vector is drawn at the fitted size: \(steps)")
        let validate = try CLITests.runExecutable(["validate", catalog.path])
        #expect(validate.status == 0, "\(validate.stdout)")
        // Pillow reads the fitted square: 30 frames of 408 px, at frame 15 red at the centre
        // (204, 204), clear at x = 102 (the square spans 153...255 there).
        let file = try FitCommandTests.stickerFile(catalog, "square")
        let animation = try Pillow.animation(file)
        #expect(animation.frames.count == 30)
        #expect(animation.frames[15].width == 408)
        #expect(animation.frames[15].pixel(204, 204) == Colour(255, 0, 0, 255))
        #expect(animation.frames[15].pixel(102, 204).a == 0)
        // 30 fps: fit stores the exact fraction 1/30 s in every fcTL (33 or 34 ms would drift).
        let delays = Self.storedDelays([UInt8](try Data(contentsOf: file)))
        #expect(delays.count == 30 && delays.allSatisfy { $0.numerator == 1 && $0.denominator == 30 }, "\(delays)")
    }

    /// Every fcTL's delay as stored (delay_num, delay_den: the two 16-bit fields after the
    /// sequence number, size and offset), walked from the PNG and APNG specifications.
    static func storedDelays(_ png: [UInt8]) -> [(numerator: Int, denominator: Int)] {
        func number(_ offset: Int, _ count: Int) -> Int { png[offset..<(offset + count)].reduce(0) { $0 << 8 | Int($1) } }
        var delays: [(numerator: Int, denominator: Int)] = []
        var offset = 8
        while offset + 12 <= png.count {
            let length = number(offset, 4)
            if String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self) == "fcTL", length >= 26 {
                delays.append((number(offset + 8 + 20, 2), number(offset + 8 + 22, 2)))
            }
            offset += 12 + length
        }
        return delays
    }
}
