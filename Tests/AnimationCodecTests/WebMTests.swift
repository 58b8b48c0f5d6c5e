import AnimationCodec
import Foundation
import TestSupport
import Testing

/// WebM files made by ffmpeg's libvpx encoders, decoded by us and by ffmpeg's libvpx decoders
/// (`-c:v libvpx-vp9` / `libvpx`, which apply the alpha stream) converted to RGBA by swscale's
/// accurate, nearest-chroma path: the two agree within one level a channel after premultiplying.
@Suite("WebM: ffmpeg's VP8 / VP9 files against ffmpeg's decode", .timeLimit(.minutes(3)))
struct WebMTests {
    /// One file the suite makes: codec, pixel format, size and frame rate.
    struct Case: CustomStringConvertible, Sendable {
        var name: String
        var encoder: String  // libvpx-vp9 or libvpx
        var pixelFormat: String  // yuva420p or yuv420p
        var width: Int
        var height: Int
        var rate: Int
        var frames: Int
        var extra: [String] = []
        var description: String { name }
        var hasAlpha: Bool { pixelFormat == "yuva420p" }
    }

    static let cases: [Case] = [
        Case(
            name: "vp9-alpha-odd", encoder: "libvpx-vp9", pixelFormat: "yuva420p", width: 67, height: 45, rate: 15,
            frames: 15),
        Case(
            name: "vp9-opaque", encoder: "libvpx-vp9", pixelFormat: "yuv420p", width: 64, height: 48, rate: 30,
            frames: 12),
        Case(
            name: "vp8-alpha-odd", encoder: "libvpx", pixelFormat: "yuva420p", width: 33, height: 21, rate: 12,
            frames: 12,
            extra: ["-auto-alt-ref", "0"]),
        Case(
            name: "vp8-opaque-odd", encoder: "libvpx", pixelFormat: "yuv420p", width: 41, height: 29, rate: 25,
            frames: 10),
        Case(
            name: "vp9-alpha-60fps-bt709", encoder: "libvpx-vp9", pixelFormat: "yuva420p", width: 48, height: 48,
            rate: 60, frames: 20,
            extra: ["-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709"])
    ]

    static let folder: URL = {
        let dir = RunFolders.removedAtExit(
            FileManager.default.temporaryDirectory.appendingPathComponent("stickerkit-webm-\(getpid())"))
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }()

    /// Makes `testCase`'s file (once): a moving test pattern, its alpha a ramp over x and y.
    static func file(_ testCase: Case) throws -> URL {
        let url = folder.appendingPathComponent(testCase.name + ".webm")
        if FileManager.default.fileExists(atPath: url.path) { return url }
        let partial = url.path + ".\(UUID().uuidString).webm"
        let source =
            "testsrc2=size=64x48:rate=\(testCase.rate):duration=\(Double(testCase.frames) / Double(testCase.rate))"
        let filter =
            "scale=\(testCase.width):\(testCase.height),format=yuva420p,geq=lum='lum(X,Y)':cb='cb(X,Y)':cr='cr(X,Y)':a='clip(X*5+Y*3+N*9,0,255)'"
        let status = try TestProcess.run(
            [
                "ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", source, "-vf", filter,
                "-c:v", testCase.encoder, "-pix_fmt", testCase.pixelFormat, "-b:v", "400k"
            ]
                + testCase.extra + [partial])
        try #require(status == 0, "ffmpeg could not make \(testCase.name)")
        // Tests run in parallel: the first file made is the one kept.
        if (try? FileManager.default.moveItem(atPath: partial, toPath: url.path)) == nil {
            try? FileManager.default.removeItem(atPath: partial)
        }
        return url
    }

    /// ffmpeg's decoded planes of `url` (Y, Cb, Cr and, with alpha, A), converted here with
    /// BT.601's limited-range formula in floating point, chroma from the sample covering each
    /// pixel (libvpx's 4:2:0 sample `i` covers columns and rows `2i` and `2i + 1`), then
    /// premultiplied. Written from the definitions: ffmpeg's own RGBA conversion is compared in
    /// ``ffmpegRGBA(_:_:)`` where swscale handles the size exactly (even sizes; for odd ones it
    /// rescales chroma by 34/67 instead of halving it).
    static func ffmpegPlanesConverted(_ url: URL, _ testCase: Case, matrix: (kr: Double, kb: Double) = (0.299, 0.114))
        throws -> [[UInt8]]
    {
        let raw = folder.appendingPathComponent(testCase.name + "-\(UUID().uuidString).yuva")
        defer { try? FileManager.default.removeItem(at: raw) }
        let status = try TestProcess.run([
            "ffmpeg", "-v", "error", "-y", "-c:v", testCase.encoder, "-i", url.path,
            "-pix_fmt", "yuva420p", "-f", "rawvideo", raw.path
        ])
        try #require(status == 0, "ffmpeg could not decode \(testCase.name)")
        let bytes = [UInt8](try Data(contentsOf: raw))
        let (w, h) = (testCase.width, testCase.height)
        let (cw, ch) = ((w + 1) / 2, (h + 1) / 2)
        let frameBytes = 2 * w * h + 2 * cw * ch
        let (kr, kb) = matrix
        let kg = 1 - kr - kb
        return stride(from: 0, to: bytes.count, by: frameBytes).map { start in
            var out = [UInt8](repeating: 0, count: w * h * 4)
            for row in 0..<h {
                for column in 0..<w {
                    let y = (Double(bytes[start + row * w + column]) - 16) * 255 / 219
                    let chroma = (row / 2) * cw + column / 2
                    let cb = (Double(bytes[start + w * h + chroma]) - 128) * 255 / 224
                    let cr = (Double(bytes[start + w * h + cw * ch + chroma]) - 128) * 255 / 224
                    let a = Int(bytes[start + w * h + 2 * cw * ch + row * w + column])
                    let rgb = [
                        y + 2 * (1 - kr) * cr, y - (2 * kb * (1 - kb) * cb + 2 * kr * (1 - kr) * cr) / kg,
                        y + 2 * (1 - kb) * cb
                    ]
                    for (channel, value) in rgb.enumerated() {
                        out[(row * w + column) * 4 + channel] = Reference.premultiply(
                            Int(min(max(value.rounded(), 0), 255)), a)
                    }
                    out[(row * w + column) * 4 + 3] = UInt8(a)
                }
            }
            return out
        }
    }

    /// ffmpeg's frames of `url`, straight RGBA from swscale's accurate nearest-chroma path,
    /// premultiplied here.
    static func ffmpegRGBA(_ url: URL, _ testCase: Case) throws -> [[UInt8]] {
        let raw = folder.appendingPathComponent(testCase.name + "-\(UUID().uuidString).rgba")
        defer { try? FileManager.default.removeItem(at: raw) }
        let status = try TestProcess.run([
            "ffmpeg", "-v", "error", "-y", "-c:v", testCase.encoder, "-i", url.path,
            "-sws_flags", "neighbor+accurate_rnd+full_chroma_int",
            "-pix_fmt", "rgba", "-f", "rawvideo", raw.path
        ])
        try #require(status == 0, "ffmpeg could not decode \(testCase.name)")
        let bytes = [UInt8](try Data(contentsOf: raw))
        let frameBytes = testCase.width * testCase.height * 4
        return stride(from: 0, to: bytes.count, by: frameBytes).map {
            Reference.premultiplied(straight: Array(bytes[$0..<$0 + frameBytes]))
        }
    }

    @Test("sniffed from the bytes, structure and timing as ffmpeg was told", arguments: cases)
    func structure(testCase: Case) throws {
        let bytes = [UInt8](try Data(contentsOf: Self.file(testCase)))
        #expect(ImageFormat.sniff(bytes) == .webm)
        #expect(ImageFormat.webm.isMessagesFormat == false)
        let decoder = try AnimationDecoder(bytes: bytes)
        #expect(decoder.info.format == .webm)
        #expect(decoder.info.width == testCase.width)
        #expect(decoder.info.height == testCase.height)
        #expect(decoder.frameCount == testCase.frames)
        #expect(decoder.info.plays == 0)
        #expect(decoder.info.details["codec"] == (testCase.encoder == "libvpx" ? "VP8" : "VP9"))
        #expect(decoder.info.details["alpha"] == String(testCase.hasAlpha))
        // WebM stores milliseconds: every delay is within a millisecond of 1 / rate and the
        // whole play within one of frames / rate.
        let period = 1000 / Double(testCase.rate)
        for frame in decoder.info.frames {
            #expect(abs(frame.delay.milliseconds - period) <= 1, "frame \(frame.index): \(frame.delay.milliseconds) ms")
        }
        #expect(abs(decoder.info.totalDurationMilliseconds - Double(testCase.frames) * period) <= 1)
    }

    @Test(
        "a clip plays for its segment's Duration, as ffprobe and a browser's video element give it: 120 frames at 60 fps are 2000 ms, though their times are stored in whole milliseconds"
    )
    func playsForItsDuration() throws {
        let clip = Case(
            name: "vp9-opaque-60fps-2s", encoder: "libvpx-vp9", pixelFormat: "yuv420p", width: 32, height: 32,
            rate: 60, frames: 120)
        let url = try Self.file(clip)
        let probe = try TestProcess.capture([
            "ffprobe", "-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", url.path
        ])
        let printed = probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        let seconds = try #require(Double(printed), "ffprobe: \(probe.stderr)")
        #expect(seconds == 2)
        let decoder = try AnimationDecoder(bytes: [UInt8](try Data(contentsOf: url)))
        #expect(decoder.frameCount == 120)
        #expect(abs(decoder.info.totalDurationMilliseconds - seconds * 1000) < 0.001)
        // The times are 0, 17, 33, 50 ... 1983 ms: every frame shows for 16 or 17 ms, the last
        // too (2000 - 1983).
        for frame in decoder.info.frames {
            let milliseconds = frame.delay.milliseconds
            #expect([16, 17].contains { abs(milliseconds - $0) < 0.001 }, "frame \(frame.index): \(milliseconds) ms")
        }
        // A Duration that is more than the times' rounding off the DefaultDuration (16.667 ms
        // after 1983) is not the video's end: a longer audio track, or a number the file
        // makes up. The last frame then keeps the DefaultDuration: 1999.666 ms in all.
        let bytes = [UInt8](try Data(contentsOf: url))
        let info = try #require(bytes.indices.dropLast(11).first { bytes[$0] == 0x44 && bytes[$0 + 1] == 0x89 })
        try #require(bytes[info + 2] == 0x88, "Duration is an 8-byte float (ffmpeg's)")
        for (duration, expected) in [(1990.0, 1999.666), (5000.0, 1999.666), (1e15, 1999.666), (2000.5, 2000.5)] {
            var patched = bytes
            withUnsafeBytes(of: duration.bitPattern.bigEndian) {
                patched.replaceSubrange(info + 3..<info + 11, with: $0)
            }
            let total = try AnimationDecoder(bytes: patched).info.totalDurationMilliseconds
            #expect(abs(total - expected) < 0.002, "Duration \(duration) ms: \(total) ms")
        }
    }

    @Test("every frame within one level of ffmpeg's libvpx planes converted by the formula", arguments: cases)
    func pixels(testCase: Case) throws {
        let url = try Self.file(testCase)
        let isBT709 = testCase.extra.contains("bt709")
        let reference = try Self.ffmpegPlanesConverted(
            url, testCase, matrix: isBT709 ? (0.2126, 0.0722) : (0.299, 0.114))
        let bytes = [UInt8](try Data(contentsOf: url))
        let (info, serial) = try Fixtures.decodeAll(bytes, threads: 1)
        let (_, parallel) = try Fixtures.decodeAll(bytes, threads: 2)
        #expect(reference.count == info.frameCount)
        #expect(serial.map(\.pixels) == parallel.map(\.pixels))
        var translucent = 0
        for (index, (ours, theirs)) in zip(serial, reference).enumerated() {
            let off = Reference.mismatches(ours.pixels, theirs, tolerance: 1)
            #expect(off == 0, "frame \(index): \(off) pixels differ by more than 1")
            translucent += stride(from: 3, to: ours.pixels.count, by: 4).filter { ours.pixels[$0] != 255 }.count
        }
        // The alpha ramp reached us (and the opaque files stayed opaque).
        #expect((translucent > 0) == testCase.hasAlpha)
    }

    @Test(
        "even sizes: within one level of ffmpeg's own RGBA",
        arguments: cases.filter { $0.width % 2 == 0 && $0.height % 2 == 0 })
    func ffmpegConversion(testCase: Case) throws {
        let url = try Self.file(testCase)
        let reference = try Self.ffmpegRGBA(url, testCase)
        let ours = try Fixtures.decodeAll([UInt8](try Data(contentsOf: url))).1
        #expect(reference.count == ours.count)
        for (index, (frame, theirs)) in zip(ours, reference).enumerated() {
            let off = Reference.mismatches(frame.pixels, theirs, tolerance: 1)
            #expect(off == 0, "frame \(index): \(off) pixels differ by more than 1")
        }
    }

    @Test("random access decodes from the keyframe before: any frame equals the one reached in order")
    func randomAccess() throws {
        let testCase = Self.cases[0]
        let bytes = [UInt8](try Data(contentsOf: Self.file(testCase)))
        let decoder = try AnimationDecoder(bytes: bytes)
        let inOrder = try decoder.decodeAllFrames(threads: 1)
        for index in [7, 2, 14, 0, 13] {
            #expect(try decoder.frame(at: index).pixels == inOrder[index].pixels, "frame \(index)")
        }
        // Two iterators at different places share the decoder without disturbing each other.
        var first = decoder.makeFrameIterator()
        var second = decoder.makeFrameIterator()
        var secondIndex = 0
        for index in 0..<decoder.frameCount {
            #expect(try first.next()?.pixels == inOrder[index].pixels, "first iterator, frame \(index)")
            if index % 2 == 0 {
                #expect(
                    try second.next()?.pixels == inOrder[secondIndex].pixels, "second iterator, frame \(secondIndex)")
                secondIndex += 1
            }
        }
    }
}
