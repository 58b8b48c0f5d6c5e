import Foundation
import TestSupport
import Testing

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
        let gzip = try TestProcess.run([
            "python3", "-c",
            "import gzip,sys; open(sys.argv[2],'wb').write(gzip.compress(open(sys.argv[1],'rb').read()))",
            json.path, folder.appendingPathComponent("square.tgs").path
        ])
        try #require(gzip == 0)
        let ffmpeg = try TestProcess.run([
            "ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=96x96:rate=24:duration=0.5",
            "-vf", "format=yuva420p,geq=lum='lum(X,Y)':cb='cb(X,Y)':cr='cr(X,Y)':a='if(lt(hypot(X-48,Y-48),40),255,0)'",
            "-c:v", "libvpx-vp9", "-pix_fmt", "yuva420p", folder.appendingPathComponent("clip.webm").path
        ])
        try #require(ffmpeg == 0)
        return folder
    }

    static func path(_ name: String) throws -> String { try pack.get().appendingPathComponent(name).path }

    @Test("info: format, canvas, frames, frame rate and codec")
    func info() throws {
        let tgs = try CLITests.runExecutable(["info", try Self.path("square.tgs")])
        #expect(tgs.status == 0, "\(tgs.stderr)")
        for line in [
            "format:     lottie", "canvas:     64x64", "frames:     30", "frame rate: 30 fps", "plays: forever",
            "gzip: true"
        ] {
            #expect(tgs.stdout.contains(line), "\(line) in \(tgs.stdout)")
        }
        // 30 frames of 1/30 s: one second, as JSON prints it, without the float sum's noise.
        let json = try CLITests.runExecutable(["info", try Self.path("square.tgs"), "--json"])
        #expect(json.stdout.contains("\"durationMs\" : 1000,"), "\(json.stdout)")
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
        let files = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".png") }
            .sorted()
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
        for (name, format) in [("square.tgs", "Lottie"), ("clip.webm", "WebM")] {
            #expect(
                result.stdout.contains("error [format]")
                    && result.stdout.contains("\(name) is not PNG, APNG, GIF or JPEG but \(format)"), "\(result.stdout)"
            )
        }
        #expect(result.stdout.components(separatedBy: "`stickers fit` converts it").count == 3, "\(result.stdout)")
    }

    @Test(
        "validate of what fit converts: besides the format error, the lints of what the file holds (a vector's size aside)"
    )
    func validateLintsConvertible() throws {
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // long.webm: VP8 without alpha, 400 x 300, 30 fps for 4.5 s (135 frames). fast.webm: VP9
        // with an alpha disc, 320 x 320, 120 fps for 0.5 s (60 frames). three.webm: VP8, 320 x 320,
        // 30 fps for 3 s (90 frames; its last frame's time makes the loop 3.0003 s).
        for (name, arguments) in [
            ("long.webm", ["testsrc2=size=400x300:rate=30:duration=4.5", "-c:v", "libvpx", "-b:v", "200k"]),
            ("three.webm", ["testsrc2=size=320x320:rate=30:duration=3", "-c:v", "libvpx", "-b:v", "200k"]),
            (
                "fast.webm",
                [
                    "testsrc2=size=320x320:rate=120:duration=0.5", "-vf",
                    "format=yuva420p,geq=lum='lum(X,Y)':cb='cb(X,Y)':cr='cr(X,Y)':a='if(lt(hypot(X-160,Y-160),120),255,0)'",
                    "-c:v", "libvpx-vp9", "-pix_fmt", "yuva420p"
                ]
            )
        ] {
            let status = try TestProcess.run(
                ["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i"] + arguments
                    + [folder.appendingPathComponent(name).path])
            try #require(status == 0)
        }
        // hello.json: a 64 x 64 document whose only layer is text, which rlottie does not draw.
        try Data(LottieDocuments.textOnly.utf8).write(to: folder.appendingPathComponent("hello.json"))
        // spin.json: the moving square at 60 fps for 180 frames, 3 s.
        let spin = LottieDocuments.movingSquare.replacingOccurrences(
            of: #""fr":30,"ip":0,"op":30"#, with: #""fr":60,"ip":0,"op":180"#)
        try #require(spin != LottieDocuments.movingSquare)
        try Data(spin.utf8).write(to: folder.appendingPathComponent("spin.json"))
        let result = try CLITests.runExecutable(["validate", folder.path, "--json"])
        #expect(result.status == 1, "\(result.stderr)")
        let report = try FitCommandTests.report(result.stdout)
        let findings = report["findings"] as? [[String: Any]] ?? []
        func rules(_ sticker: String) -> Set<String> {
            Set(
                findings.filter { $0["sticker"] as? String == sticker }.map {
                    "\($0["severity"] as? String ?? "") \($0["rule"] as? String ?? "")"
                })
        }
        func message(_ sticker: String, _ rule: String) -> String {
            findings.first { $0["sticker"] as? String == sticker && $0["rule"] as? String == rule }?["message"]
                as? String ?? ""
        }
        // 4.5 s at 30 fps: 135 frames over 60, a loop over 4 s, 4:3, every pixel opaque; 60 / 4.5 s
        // is 13.3 frames a second, so --max-fps 13 keeps it within 60 frames.
        #expect(
            rules("long")
                == [
                    "error format", "warning square", "warning transparency", "warning loop-duration",
                    "warning frame-count"
                ], "\(findings)")
        #expect(message("long", "frame-count").contains("--max-fps 13`"), "\(findings)")
        // 120 frames a second, over 30; a video shows its 8 ms frames for their own time, so no
        // short-delay warning; 60 frames are within the limit.
        #expect(rules("fast") == ["error format", "warning frame-rate"], "\(findings)")
        // A vector is drawn at any size: its 64 px document is no pixel-size error. It draws
        // nothing, and says why.
        #expect(rules("hello") == ["error format", "warning not-drawn", "warning blank"], "\(findings)")
        #expect(message("hello", "not-drawn").contains("1 text layer left out"), "\(findings)")
        // 180 frames over 3 s: 60 frames a second, and 60 / 3 s = 20 keeps it within 60 frames.
        #expect(rules("spin") == ["error format", "warning frame-count", "warning frame-rate"], "\(findings)")
        #expect(message("spin", "frame-rate").hasPrefix("60 frames per second on average;"), "\(findings)")
        #expect(
            message("spin", "frame-count").contains(
                "`stickers fit --max-fps 20` keeps it within that (20 fps over its 3 s loop"),
            "\(findings)")
        // 60 frames over 3.0003 s is 19.998 a second; fit's --max-fps 20 keeps 60 frames (it
        // gives rates the frame-rate rule's slack), so 20 is the advice, and following it holds.
        #expect(rules("three") == ["error format", "warning frame-count", "warning transparency"], "\(findings)")
        #expect(message("three", "frame-count").contains("`stickers fit --max-fps 20`"), "\(findings)")
        let three = try CLITests.runExecutable([
            "fit", folder.appendingPathComponent("three.webm").path, "--dry-run", "--json", "--level", "1",
            "--max-fps", "20"
        ])
        let fitted = (try FitCommandTests.report(three.stdout)["stickers"] as? [[String: Any]])?.first ?? [:]
        #expect(fitted["framesAfter"] as? Int == 60, "\(fitted)")
        // A frame rate the frame-rate rule warns of is never the advice: 180 frames of 1 ms.
        let quick = LottieDocuments.movingSquare.replacingOccurrences(
            of: #""fr":30,"ip":0,"op":30"#, with: #""fr":1000,"ip":0,"op":180"#)
        try Data(quick.utf8).write(to: folder.appendingPathComponent("quick.json"))
        let quickReport = try FitCommandTests.report(
            try CLITests.runExecutable(["validate", folder.appendingPathComponent("quick.json").path, "--json"]).stdout)
        let quickCount =
            (quickReport["findings"] as? [[String: Any]] ?? []).first { $0["rule"] as? String == "frame-count" }?[
                "message"] as? String ?? ""
        #expect(quickCount.contains("`stickers fit --max-fps 30`"), "\(quickCount)")
        // Sizes are a raster sticker's: the vectors are drawn at the pack's.
        let mixed = findings.first { $0["rule"] as? String == "mixed-sizes" }?["measured"] as? String
        #expect(mixed == "320x320, 400x300", "\(findings)")
    }

    /// ffmpeg's frames of `name` (libvpx's decoders, which keep the alpha channel),
    /// premultiplied by the test's own rule.
    static func ffmpegFrames(_ name: String) throws -> [[UInt8]] {
        try FitCommandTests.reference(URL(fileURLWithPath: try path(name)), tool: "ffmpeg").frames
    }

    @Test("frames of the .webm: every premultiplied buffer within one level of ffmpeg's libvpx frames")
    func webmFrames() throws {
        let out = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let result = try CLITests.runExecutable([
            "frames", try Self.path("clip.webm"), "--out", out.path, "--format", "rgba"
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let reference = try Self.ffmpegFrames("clip.webm")
        #expect(reference.count == 12)
        for (index, expected) in reference.enumerated() {
            let ours = [UInt8](
                try Data(contentsOf: out.appendingPathComponent(String(format: "frame-%04d.rgba", index))))
            try #require(ours.count == expected.count, "frame \(index)")
            let worst = zip(ours, expected).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(worst <= 1, "frame \(index): \(worst) levels from ffmpeg's")
            // The alpha disc: both kinds of pixel, so the comparison covers the alpha channel.
            #expect(expected[3] == 0 && expected[(48 * 96 + 48) * 4 + 3] == 255, "frame \(index)")
        }
    }

    @Test("validate of a WebM whose frame does not decode: the format error no longer says fit converts it")
    func validateUndecodableWebM() throws {
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("broken.webm")
        let status = try TestProcess.run([
            "ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x320:rate=30:duration=0.2", "-c:v",
            "libvpx", file.path
        ])
        try #require(status == 0)
        // The first keyframe's start code (9D 01 2A, RFC 6386 section 9.1) zeroed: its block
        // reads, its frame does not decode.
        var bytes = [UInt8](try Data(contentsOf: file))
        let start = try #require((0..<bytes.count - 3).first { bytes[$0..<$0 + 3] == [0x9D, 0x01, 0x2A] })
        bytes.replaceSubrange(start..<start + 3, with: [0, 0, 0])
        try Data(bytes).write(to: file)
        let result = try CLITests.runExecutable(["validate", folder.path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("error [decodes] broken:"), "\(result.stdout)")
        #expect(!result.stdout.contains("converts it"), "\(result.stdout)")
        #expect(result.stdout.contains("`stickers fit` cannot convert it either"), "\(result.stdout)")
    }

    @Test(
        "a .webm cut short: the frames of its whole blocks, as ffmpeg decodes them, with the cut named by info, validate and fit"
    )
    func truncatedWebM() throws {
        let source = try Self.path("clip.webm")
        // ffprobe's packet positions: cut where frame 7's data starts, frames 0-6 are whole.
        let probe = try TestProcess.capture([
            "ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "packet=pos", "-of", "csv=p=0", source
        ])
        let positions = probe.stdout.split(whereSeparator: \.isNewline).compactMap { Int($0.prefix { $0.isNumber }) }
        try #require(positions.count == 12, "\(probe.stdout)")
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let cut = folder.appendingPathComponent("cut.webm")
        try Data(contentsOf: URL(fileURLWithPath: source)).prefix(positions[7]).write(to: cut)
        let note = "WebM ends at byte \(positions[7])"
        let info = try CLITests.runExecutable(["info", cut.path])
        #expect(info.status == 0, "\(info.stderr)")
        #expect(info.stdout.contains("frames:     7\n") && info.stdout.contains("warning: \(note)"), "\(info.stdout)")
        // Frames 0-6 hold no data of the blocks after them: ffmpeg's frames of the whole file.
        let out = folder.appendingPathComponent("frames")
        let frames = try CLITests.runExecutable(["frames", cut.path, "--out", out.path, "--format", "rgba"])
        #expect(frames.status == 0, "\(frames.stderr)")
        let written = try FileManager.default.contentsOfDirectory(atPath: out.path).filter { $0.hasSuffix(".rgba") }
        #expect(written.count == 7, "\(written)")
        for (index, expected) in try Self.ffmpegFrames("clip.webm").prefix(7).enumerated() {
            let ours = [UInt8](
                try Data(contentsOf: out.appendingPathComponent(String(format: "frame-%04d.rgba", index))))
            try #require(ours.count == expected.count, "frame \(index)")
            let worst = zip(ours, expected).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(worst <= 1, "frame \(index): \(worst) levels from ffmpeg's")
        }
        let validate = try CLITests.runExecutable(["validate", folder.path, "--json"])
        let findings = try FitCommandTests.report(validate.stdout)["findings"] as? [[String: Any]] ?? []
        #expect(
            findings.contains {
                $0["rule"] as? String == "damaged" && ($0["message"] as? String ?? "").contains(note)
            }, "\(findings)")
        let fit = try CLITests.runExecutable(["fit", cut.path, "--dry-run", "--json", "--level", "1"])
        #expect(fit.status == 0, "\(fit.stderr)")
        let sticker = (try FitCommandTests.report(fit.stdout)["stickers"] as? [[String: Any]])?.first ?? [:]
        #expect(sticker["framesBefore"] as? Int == 7, "\(sticker)")
        #expect((sticker["inputDamage"] as? [String])?.first?.hasPrefix(note) == true, "\(sticker)")
    }

    @Test("filmstrip of the .webm: cell k is ffmpeg's frame k over the strip's checkerboard")
    func webmFilmstrip() throws {
        let (image, stdout) = try SheetOptionTests.run("filmstrip", [try Self.path("clip.webm"), "--cell", "96"])
        #expect(stdout.contains("12 frames"), "\(stdout)")
        let reference = try Self.ffmpegFrames("clip.webm")
        // Eight 108 px tiles a row (the 96 px cell and 6 px either side): two rows.
        let tileHeight = image.height / 2
        for (index, frame) in reference.enumerated() {
            let (x0, y0) = SheetOptionTests.frameCell(index, columns: 8, cell: 96, tileHeight: tileHeight)
            var worst = 0
            for y in 0..<96 {
                for x in 0..<96 {
                    // The checkerboard: 8 px squares, white first, then #CCCCCC.
                    let backdrop = (x / 8 + y / 8) % 2 == 0 ? 255.0 : 204.0
                    let p = (y * 96 + x) * 4
                    let under = Int((backdrop * Double(255 - Int(frame[p + 3])) / 255).rounded())
                    let shown = image.pixel(x0 + x, y0 + y)
                    for (channel, value) in [shown.r, shown.g, shown.b].enumerated() {
                        worst = max(worst, abs(Int(value) - (Int(frame[p + channel]) + under)))
                    }
                }
            }
            #expect(worst <= 2, "frame \(index): \(worst) levels from ffmpeg's frame over the checkerboard")
        }
    }

    @Test("sheet: the square's first frame where its geometry puts it, on every background")
    func sheet() throws {
        let (image, _) = try SheetOptionTests.run("sheet", [try Self.pack.get().path, "--size", "small"])
        // Two rows (clip, then square) of eight 116 px tiles: small stickers (asked for: the
        // clip's side is no size's), 100 px cells with 8 px around them. Frame 0 of the square
        // spans 8...24 x 24...40 of 64: in a 100 px cell, 12.5...37.5 x 37.5...62.5.
        #expect(image.width == 8 * 116 && image.height == 2 * 116)
        for column in 0..<8 {
            let (x, y) = (column * 116 + 8, 116 + 8)
            // The 64 px frame is scaled up (Lanczos), so inside the square's edge the filter's
            // lobe leaves red a few levels under opaque: red, within 16 levels, on any backdrop.
            let square = (y + 39..<y + 61).flatMap { py in (x + 14..<x + 36).map { image.pixel($0, py) } }
            #expect(square.allSatisfy { $0.r >= 239 && $0.g <= 16 && $0.b <= 16 }, "column \(column): the square")
            // Left of it and right of it the background shows: the two agree, and are not red.
            let left = image.pixel(x + 5, y + 50)
            let right = image.pixel(x + 75, y + 50)
            #expect(
                left != Colour(255, 0, 0) && (column == 4 || column == 7 || left == right),
                "column \(column): \(left) \(right)")
        }
        // On white the surround is white; the clip's row shows white at its cell's corners
        // (outside the alpha disc) and the picture at its centre.
        #expect(image.pixel(8 + 75, 116 + 8 + 50) == Colour(hex: 0xFFFFFF))
        #expect(
            image.pixel(8 + 2, 8 + 2) == Colour(hex: 0xFFFFFF) && image.pixel(8 + 50, 8 + 50) != Colour(hex: 0xFFFFFF))
    }

    @Test("render --animate: the square moves right 32/30 of its units a frame, at the times its frames start")
    func animatedRender() throws {
        let (frames, durations) = try RenderOptionTests.animation([
            try Self.pack.get().path, "--animate", "--duration", "1"
        ])
        try #require(frames.count > 10)
        /// The exactly red pixels of the square's column: their centre's x and their extent.
        func red(_ picture: Picture, from left: Int) -> (centre: Double, width: Int)? {
            var xs: [Int] = []
            for y in 0..<picture.height {
                for x in left..<picture.width where picture.pixel(x, y) == Colour(255, 0, 0) { xs.append(x) }
            }
            guard let low = xs.min(), let high = xs.max() else { return nil }
            return (Double(low + high) / 2, high - low + 1)
        }
        // The clip (the first sticker) shows red in some frames: look right of the square's
        // first position less half the browser's column.
        let first = try #require(red(frames[0], from: frames[0].width / 4))
        let left = Int(first.centre) - 60
        // The square's interior is 16 units wide: the scale of units to pixels.
        let scale = Double(first.width) / 16
        var start = 0.0
        for (index, frame) in frames.enumerated() {
            let shownFrame = Int((start * 30 / 1000 + 1e-6).rounded(.down)) % 30
            let expected = first.centre + scale * 32 * Double(shownFrame) / 30
            let seen = try #require(red(frame, from: left), "frame \(index)")
            #expect(
                abs(seen.centre - expected) <= 1.5,
                "output frame \(index) at \(start) ms: Lottie frame \(shownFrame), centre \(seen.centre), expected \(expected)"
            )
            start += durations[index]
        }
    }

    @Test("preview --frame 15: red cells exactly where the square stands in the middle of the picture")
    func preview() throws {
        let preview = try CLITests.runExecutable([
            "preview", try Self.path("square.tgs"), "--frame", "15", "--width", "32", "--height", "16", "--colors",
            "truecolor"
        ])
        #expect(preview.status == 0, "\(preview.stderr)")
        // 32 x 16 cells of two pixels each: the 64 px frame at 32 x 32. Frame 15's square spans
        // 24...40 of 64 both ways: pixels 12...20, red inside 13...18, none outside 11...20.
        let cells = ANSIPicture.cells(preview.stdout)
        #expect(cells.count == 16 && cells.allSatisfy { $0.count == 32 }, "\(cells.map(\.count))")
        for (row, line) in cells.enumerated() {
            for (x, cell) in line.enumerated() {
                for (y, colour) in [(2 * row, cell.top), (2 * row + 1, cell.bottom)] {
                    let isRed = colour == Colour(255, 0, 0)
                    if (13...18).contains(x) && (13...18).contains(y) {
                        #expect(isRed, "(\(x), \(y)): \(String(describing: colour))")
                    }
                    if !(11...20).contains(x) || !(11...20).contains(y) { #expect(!isRed, "(\(x), \(y))") }
                }
            }
        }
    }

    @Test(
        "a .webm with sound (Opus, and Vorbis listed before the video): the same frames as without, the sound named as left out by info and fit, which still makes it under --strict"
    )
    func webmWithSound() throws {
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The clip's own video stream copied, not encoded again, with a tone beside it; the
        // second file lists its two audio tracks before the video.
        let source = try Self.path("clip.webm")
        let opus = folder.appendingPathComponent("opus.webm")
        let both = folder.appendingPathComponent("both.webm")
        let tone = ["-f", "lavfi", "-i", "sine=frequency=440:duration=0.5"]
        let remux = try TestProcess.run(
            ["ffmpeg", "-v", "error", "-y", "-i", source] + tone
                + ["-map", "0:v", "-map", "1:a", "-c:v", "copy", "-c:a", "libopus", opus.path])
        try #require(remux == 0)
        let reordered = try TestProcess.run(
            ["ffmpeg", "-v", "error", "-y", "-i", source] + tone + tone
                + [
                    "-map", "1:a", "-map", "2:a", "-map", "0:v", "-c:v", "copy", "-c:a:0", "libvorbis", "-c:a:1",
                    "libopus", both.path
                ])
        try #require(reordered == 0)
        let probe = try TestProcess.capture([
            "ffprobe", "-v", "error", "-show_entries", "stream=codec_type,codec_name", "-of", "csv=p=0", both.path
        ])
        try #require(probe.stdout.split(whereSeparator: \.isNewline) == ["vorbis,audio", "opus,audio", "vp9,video"])
        let silent = try CLITests.runExecutable([
            "frames", source, "--out", folder.appendingPathComponent("silent").path, "--format", "rgba"
        ])
        try #require(silent.status == 0, "\(silent.stderr)")
        for (file, codecs) in [(opus, "1 audio track: A_OPUS"), (both, "2 audio tracks: A_VORBIS, A_OPUS")] {
            let note = "the WebM's sound (\(codecs)) is left out: stickers play without sound"
            let info = try CLITests.runExecutable(["info", file.path])
            #expect(info.status == 0, "\(info.stderr)")
            #expect(
                info.stdout.contains("frames:     12\n") && info.stdout.contains("warning: \(note)"), "\(info.stdout)")
            // The video stream is the clip's, byte for byte: so are its frames.
            let out = folder.appendingPathComponent(file.deletingPathExtension().lastPathComponent)
            let frames = try CLITests.runExecutable(["frames", file.path, "--out", out.path, "--format", "rgba"])
            #expect(frames.status == 0, "\(frames.stderr)")
            for index in 0..<12 {
                let name = String(format: "frame-%04d.rgba", index)
                let ours = try Data(contentsOf: out.appendingPathComponent(name))
                let expected = try Data(
                    contentsOf: folder.appendingPathComponent("silent").appendingPathComponent(name))
                #expect(ours == expected, "\(file.lastPathComponent) frame \(index)")
            }
            // Sound is no loss of the picture: --strict, which refuses loss, makes it.
            let fit = try CLITests.runExecutable(["fit", file.path, "--dry-run", "--json", "--level", "1", "--strict"])
            #expect(fit.status == 0, "\(fit.stdout)\(fit.stderr)")
            let sticker = (try FitCommandTests.report(fit.stdout)["stickers"] as? [[String: Any]])?.first ?? [:]
            #expect(sticker["fitted"] as? Bool == true && sticker["soundLeftOut"] as? String == note, "\(sticker)")
            #expect((sticker["inputDamage"] as? [String])?.isEmpty == true, "\(sticker)")
        }
        let text = try CLITests.runExecutable(["fit", opus.path, "--dry-run", "--level", "1"])
        #expect(text.stdout.contains("warning: the WebM's sound (1 audio track: A_OPUS) is left out"), "\(text.stdout)")
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
        // The clip's file against ffmpeg's frames scaled by Pillow (Lanczos, premultiplied):
        // frame for frame, close, and as close as the report says.
        let clip = try #require(stickers.first { $0["name"] as? String == "clip" })
        // A 96 px photographic clip made 408 px does not fit exactly: the report has a PSNR.
        let reported = try #require(clip["psnr"] as? Double, "\(clip)")
        let psnrs = try Self.psnrAgainstFFmpeg(
            try FitCommandTests.stickerFile(catalog, "clip"), frames: try Self.ffmpegFrames("clip.webm"))
        #expect(psnrs.count == 12 && psnrs.allSatisfy { $0 >= 35 }, "\(psnrs)")
        let mean = psnrs.reduce(0, +) / Double(max(psnrs.count, 1))
        #expect(abs(mean - reported) <= 3, "reported \(reported) dB, against ffmpeg's frames \(mean) dB")
    }

    @Test(
        "a 10 s Lottie at 60 fps over --max-decoded: refused as it is, made with --max-fps 2, its 20 frames drawn alone where the square is at each"
    )
    func longLottieWithFewerFrames() throws {
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // The square moving from x = 16 to 48 of 64 over 600 frames at 60 fps. Drawn at 408 px,
        // its 600 frames take 600 x 408 x 408 x 4 = 399,513,600 bytes, over 100 MiB; 20 of them
        // (2 fps over 10 s) take 13,317,120.
        let long = LottieDocuments.movingSquare.replacingOccurrences(of: #""fr":30"#, with: #""fr":60"#)
            .replacingOccurrences(of: #""op":30"#, with: #""op":600"#)
            .replacingOccurrences(of: #"{"t":30}"#, with: #"{"t":600}"#)
        let file = folder.appendingPathComponent("long.json")
        try Data(long.utf8).write(to: file)
        let common = ["--json", "--max-decoded", "100M", "--level", "1", "--progress", "none"]
        let refused = try CLITests.runExecutable(["fit", file.path, "--dry-run"] + common)
        #expect(refused.status == 1)
        let catalog = folder.appendingPathComponent("Long.xcstickers")
        let made = try CLITests.runExecutable(["fit", file.path, "--max-fps", "2", "-o", catalog.path] + common)
        #expect(made.status == 0, "\(made.stdout)\(made.stderr)")
        let animation = try Pillow.animation(try FitCommandTests.stickerFile(catalog, "long"))
        #expect(animation.frames.count == 20)
        #expect(abs(animation.durations.reduce(0, +) - 10_000) <= 1, "\(animation.durations)")
        // Kept frame k is input frame 30 k: the centre at x = (16 + 32 x 30 k / 600) x 408 / 64,
        // the square 51 px either side of it.
        for k in [0, 7, 19] {
            let centre = (16 + 32 * 30 * k / 600) * 408 / 64
            #expect(animation.frames[k].pixel(centre, 204) == Colour(255, 0, 0, 255), "frame \(k)")
            #expect(animation.frames[k].pixel(centre + 70, 204).a == 0, "frame \(k)")
        }
    }

    @Test(
        "a Lottie document of 4096 px and 180 frames (12 GB drawn at its own size): validate says fit converts it, and fit draws it at 408 px"
    )
    func largeLottieDocument() throws {
        let out = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let document = LottieDocuments.largeMovingSquare
        let big = out.appendingPathComponent("big.json")
        try Data(document.utf8).write(to: big)
        let validate = try CLITests.runExecutable(["validate", big.path])
        #expect(
            validate.stdout.contains("(identified from its bytes; named .json); `stickers fit` converts it\n"),
            "\(validate.stdout)")
        #expect(!validate.stdout.contains("[decodes]"), "\(validate.stdout)")
        // Checked as fit draws it, at the pack's size (regular, 408 px).
        #expect(validate.stdout.contains(", drawn at 408x408, 180 frames, 3000 ms loop"), "\(validate.stdout)")
        let catalog = out.appendingPathComponent("Big.xcstickers")
        let fit = try CLITests.runExecutable(["fit", big.path, "-o", catalog.path, "--level", "1"])
        #expect(fit.status == 0, "\(fit.stdout)\(fit.stderr)")
        // Pillow reads the sticker: 408 px, and the frame shown at 1.5 s (document frame 90,
        // the centre at 2048) has the 102 px square over 153...255.
        let (frames, durations) = try #require(
            try Pillow.animations([FitCommandTests.stickerFile(catalog, "big")]).first)
        var start = 0.0
        let middle = try #require(
            durations.indices.first { k in
                defer { start += durations[k] }
                return start + durations[k] > 1500
            })
        #expect(frames[middle].width == 408)
        #expect(frames[middle].pixel(204, 204) == Colour(255, 0, 0, 255))
        #expect(frames[middle].pixel(158, 204) == Colour(255, 0, 0, 255))
        #expect(frames[middle].pixel(148, 204).a == 0 && frames[middle].pixel(260, 204).a == 0)
        // The drawing commands draw it at the size they show it, and Messages' quick check
        // names its format, not its document's size; sheet and filmstrip so draw a document of
        // 10000 px too, over the 64 Mpx canvas limit at its own size.
        let huge = out.appendingPathComponent("huge.json")
        try Data(document.replacingOccurrences(of: #""w":4096,"h":4096"#, with: #""w":10000,"h":10000"#).utf8)
            .write(to: huge)
        let drawings: [(String, [String])] = [
            ("sheet", ["-o", out.appendingPathComponent("sheet.png").path]),
            ("filmstrip", ["-o", out.appendingPathComponent("strip.png").path]),
            ("preview", ["--frame", "90", "--width", "16", "--height", "8"]),
            ("render", ["-o", out.appendingPathComponent("browser.png").path])
        ]
        for (input, commands) in [(big.path, drawings), (huge.path, Array(drawings.prefix(2)))] {
            for (name, options) in commands {
                let command = [name, input] + options
                let result = try CLITests.runExecutable(command)
                #expect(result.status == 0, "\(command[0]) \(input): \(result.stderr)")
                #expect(
                    result.stderr.isEmpty
                        || result.stderr.hasSuffix(
                            ": drawn, but Messages does not take it as it is (a Lottie animation); `stickers fit` makes it a sticker\n"
                        ) && result.stderr.split(separator: "\n").count == 1,
                    "\(command[0]) \(input): \(result.stderr)")
            }
        }
    }

    @Test("fit of a Lottie whose only layer is text: the report says the text is left out, validate that it is blank")
    func textOnlyLottie() throws {
        let out = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        // Bodymovin's text layer: the one thing in the document, which rlottie does not draw.
        let hello = out.appendingPathComponent("hello.json")
        try Data(LottieDocuments.textOnly.utf8).write(to: hello)
        let catalog = out.appendingPathComponent("Hello.xcstickers")
        let text = try CLITests.runExecutable(["fit", hello.path, "-o", catalog.path, "--level", "1"])
        #expect(
            text.stdout.contains("warning: the sticker lacks part of its input: 1 text layer left out"),
            "\(text.stdout)")
        let json = try CLITests.runExecutable(["fit", hello.path, "-o", catalog.path, "--level", "1", "--json"])
        let report = try FitCommandTests.report(json.stdout)
        let sticker = try #require((report["stickers"] as? [[String: Any]])?.first)
        #expect((sticker["notDrawn"] as? [String])?.count == 1, "\(sticker)")
        let findings = (report["validation"] as? [String: Any])?["findings"] as? [[String: Any]] ?? []
        #expect(findings.contains { $0["rule"] as? String == "blank" }, "\(findings)")
        // Pillow agrees the file shows nothing.
        let file = try FitCommandTests.stickerFile(catalog, "hello")
        let frames = try Pillow.animation(file).frames
        #expect(
            !frames.isEmpty
                && frames.allSatisfy { frame in
                    stride(from: 3, to: frame.pixels.count, by: 4).allSatisfy { frame.pixels[$0] == 0 }
                })
    }

    /// The PSNR of each frame of the APNG `file` against the premultiplied 96 x 96 `frames`,
    /// scaled by Pillow to the file's size (Lanczos on premultiplied planes), in Pillow's reading.
    static func psnrAgainstFFmpeg(_ file: URL, frames: [[UInt8]]) throws -> [Double] {
        let folder = CLITests.temporaryDirectory()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (index, frame) in frames.enumerated() {
            try Data(frame).write(to: folder.appendingPathComponent("\(index).rgba"))
        }
        let script = """
            import math, sys, numpy as np
            from PIL import Image, ImageSequence
            folder, count = sys.argv[1], int(sys.argv[3])
            fitted = [np.asarray(f.convert("RGBA"), dtype=float) for f in ImageSequence.Iterator(Image.open(sys.argv[2]))]
            for k, shown in enumerate(fitted[:count]):
                side = shown.shape[1]
                source = np.frombuffer(open("%s/%d.rgba" % (folder, k), "rb").read(), np.uint8).reshape(96, 96, 4).astype(np.float32)
                planes = [np.asarray(Image.fromarray(source[..., c], "F").resize((side, side), Image.LANCZOS)) for c in range(4)]
                expected = np.clip(np.stack(planes, -1), 0, 255)
                shown[..., :3] *= shown[..., 3:4] / 255
                print(10 * math.log10(255 ** 2 / max(((expected - shown) ** 2).mean(), 1e-9)))
            """
        let output = try TestProcess.capture(["python3", "-c", script, folder.path, file.path, "\(frames.count)"])
        try #require(output.status == 0, "\(output.stderr)")
        return output.stdout.split(separator: "\n").compactMap { Double($0) }
    }

    /// Every fcTL's delay as stored (delay_num, delay_den: the two 16-bit fields after the
    /// sequence number, size and offset), walked from the PNG and APNG specifications.
    static func storedDelays(_ png: [UInt8]) -> [(numerator: Int, denominator: Int)] {
        func number(_ offset: Int, _ count: Int) -> Int {
            png[offset..<(offset + count)].reduce(0) { $0 << 8 | Int($1) }
        }
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
