import Foundation
import StickerCLI
import Testing

/// Decompression bombs and lies (Tests/Scripts/make_bombs.py builds them byte by byte): each
/// ends fast in a typed limit or format error, or in the documented partial result, and the
/// process's peak memory stays within the budget its limits set. Each file runs through the
/// built `stickers frames` in a child process, whose peak RSS comes from wait4.
@Suite("Decompression bombs and lies", .serialized, .timeLimit(.minutes(3)))
struct BombTests {
    /// The budget every bomb runs under: 4 Mpx canvases, 64 MiB of decoded frames.
    static let limitArguments = ["--max-pixels", "4M", "--max-decoded", "64M"]
    /// What those limits allow a decode to hold beyond the process itself: the file (and one
    /// copy of its compressed data), the canvas, the previous canvas for restore-previous, the
    /// frame handed out and the inflate buffer: four 16 MiB canvases.
    static func budget(fileBytes: Int) -> Int { 2 * fileBytes + 4 * (4 << 20) * 4 }
    /// Under scripts/sanitize.sh the executable carries a sanitizer's shadow memory, so only
    /// the outcomes are checked there, not the memory budget.
    static let checksMemory = ProcessInfo.processInfo.environment["STICKERKIT_SANITIZER"] == nil

    struct Case: Sendable, CustomTestStringConvertible {
        let file: String
        /// `nil`: the decode must fail with this text on stderr; else it succeeds, printing it.
        let failure: String?
        let warning: String?
        var testDescription: String { file }
    }

    static let cases = [
        Case(
            file: "huge-canvas.png", failure: "image has 4294836225 pixels, more than the limit of 4194304",
            warning: nil),
        Case(
            file: "tallest-canvas.png", failure: "image has 2147483647 pixels, more than the limit of 4194304",
            warning: nil),
        Case(file: "huge-frame.gif", failure: "4294836225 pixels, more than the limit of 4194304", warning: nil),
        Case(
            file: "zeros-8192.png", failure: "image has 67108864 pixels, more than the limit of 4194304", warning: nil),
        Case(
            file: "many-frames.gif", failure: "animation has at least 10001 frames, more than the limit of 10000",
            warning: nil),
        Case(file: "chunk-past-end.png", failure: "file is truncated: chunk IDAT at byte 33", warning: nil),
        Case(file: "overlong-zlib.png", failure: nil, warning: nil),
        Case(file: "many-frames-declared.png", failure: nil, warning: "acTL declares 4294967295 frames"),
        Case(
            file: "frame-outside.png", failure: nil,
            warning: "fcTL rectangle 16x16+60000+60000 does not fit the 16x16 canvas"),
        Case(file: "endless-lzw.gif", failure: nil, warning: "pixel data ends after 0 of 1 pixels"),
        Case(file: "unterminated-lzw.gif", failure: nil, warning: "pixel data ends after 0 of 1 pixels")
    ]

    /// The bombs, written once per run and removed when the test process exits.
    static let folder: URL = {
        let folder = CLITests.temporaryDirectory()
        let script = CLITests.repoRoot.appendingPathComponent("Tests/Scripts/make_bombs.py").path
        _ = try? CLITests.runProcess(["python3", script, folder.path])
        atexit { try? FileManager.default.removeItem(at: BombTests.folder) }
        return folder
    }()

    struct Run {
        let status: Int32
        let stderr: String
        let peakBytes: Int
        let seconds: Double
    }

    /// `stickers frames FILE --out OUT --format rgba` under the budget's limits, through
    /// peak_rss.py (a child spawned straight from the test runner would report the runner's
    /// peak memory as its own).
    static func frames(_ file: URL, out: URL) throws -> Run {
        let log = out.path + ".stderr"
        let report = out.path + ".peak"
        defer { unlink(log); unlink(report) }
        let start = Date()
        let script = CLITests.repoRoot.appendingPathComponent("Tests/Scripts/peak_rss.py").path
        let pid = try PreviewTests.spawn(
            [
                "/usr/bin/python3", script, report, try PreviewTests.executable(), "frames", file.path,
                "--out", out.path, "--format", "rgba"
            ] + limitArguments, stderr: log)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let seconds = Date().timeIntervalSince(start)
        let fields = ((try? String(contentsOfFile: report, encoding: .utf8)) ?? "").split(separator: " ").compactMap {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let stderr = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        guard status == 0, fields.count == 2 else { throw CLIError("peak_rss.py failed (status \(status)): \(stderr)") }
        return Run(status: Int32(fields[1]), stderr: stderr, peakBytes: fields[0] * 1024, seconds: seconds)
    }

    /// The process's own peak: a 16x16 PNG written the same way.
    static let baseline: Int = {
        let out = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        return (try? frames(folder.appendingPathComponent("tiny.png"), out: out).peakBytes) ?? 0
    }()

    @Test(
        "each bomb fails fast with a typed error, or decodes its documented partial result, within the memory budget",
        arguments: cases)
    func bomb(_ bomb: Case) throws {
        let file = Self.folder.appendingPathComponent(bomb.file)
        let fileBytes = try #require(
            try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int,
            "make_bombs.py wrote \(bomb.file)")
        let out = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let run = try Self.frames(file, out: out)
        let over = run.peakBytes - Self.baseline
        print(
            "\(bomb.file): \(fileBytes) bytes, exit \(run.status), \(String(format: "%.2f", run.seconds)) s, peak \(run.peakBytes >> 20) MiB (\(over >> 20) MiB over the process's own)"
        )
        // A hang shows as a signal too: peak_rss.py caps the child's CPU time (SIGXCPU).
        #expect(run.status >= 0, "no crash, signal or hang")
        #expect(
            !Self.checksMemory || (Self.baseline > 0 && over <= Self.budget(fileBytes: fileBytes)),
            "peak \(run.peakBytes) bytes, \(over) over the baseline's \(Self.baseline); budget \(Self.budget(fileBytes: fileBytes))"
        )
        if let failure = bomb.failure {
            #expect(run.status == 1)
            #expect(run.stderr.contains(failure), "\(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: out.path), "nothing written")
        } else {
            #expect(run.status == 0, "\(run.stderr)")
            if let warning = bomb.warning { #expect(run.stderr.contains(warning), "\(run.stderr)") }
            // Every case that decodes is a single frame of transparent black.
            let pixels = try Data(contentsOf: out.appendingPathComponent("frame-0000.rgba"))
            #expect(pixels.count > 0 && pixels.allSatisfy { $0 == 0 })
        }
    }

    @Test("an image as large as the budget allows decodes exactly, within it")
    func largestAllowed() throws {
        let file = Self.folder.appendingPathComponent("zeros-2048.png")
        let out = CLITests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: out) }
        let run = try Self.frames(file, out: out)
        let fileBytes = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int)
        print(
            "zeros-2048.png: \(fileBytes) bytes, peak \(run.peakBytes >> 20) MiB (\((run.peakBytes - Self.baseline) >> 20) MiB over the process's own)"
        )
        #expect(run.status == 0, "\(run.stderr)")
        let pixels = try Data(contentsOf: out.appendingPathComponent("frame-0000.rgba"))
        #expect(pixels.count == 2048 * 2048 * 4 && pixels.allSatisfy { $0 == 0 })
        #expect(!Self.checksMemory || run.peakBytes - Self.baseline <= Self.budget(fileBytes: fileBytes))
    }
}
