import Dispatch
import FoundationEssentials
import StickerPack
import StickerRenderer
import StickerTranscript

#if canImport(Glibc)
    import Glibc
#endif

/// Renders a pack's expanded browser at 3x (first frames, PNG out) and has ImageMagick's
/// `montage` build the same grid from the same files, taking turns in one run.
package enum RenderBench {
    /// What one render benchmark measured; times are medians over the repeats, milliseconds.
    package struct Result: Sendable, Encodable {
        /// The pack measured.
        package var pack: String
        /// Output size, pixels.
        package var width: Int, height: Int
        /// Stickers drawn.
        package var stickers: Int
        /// Renders per tool.
        package var repeats: Int
        /// Ours, whole: load the pack, decode, scale, compose, encode PNG, write the file.
        package var oursMilliseconds: Double
        /// Ours, split: loading the pack and reading structures; decode + scale, then compose + PNG encode
        /// (one pass: rows are composed straight into the encoder); writing the file.
        package var loadMilliseconds: Double, drawMilliseconds: Double, encodeMilliseconds: Double
        /// `montage` as a process (nil when it is not installed).
        package var montageMilliseconds: Double?
        /// montage time / our time.
        package var ratio: Double?
        /// The montage command run.
        package var montageCommand: [String]
        /// `stickers render` as a whole process, as a user runs it (nil when not measured).
        package var processMilliseconds: Double?
        /// montage time / our whole-process time.
        package var processRatio: Double?
        /// The pack's default conversation (`stickers transcript`) drawn as a PNG of one screen
        /// of the default device at 3x, in process, the pack loaded too (nil when its fonts are
        /// missing).
        package var transcriptMilliseconds: Double?
        /// The transcript's time over the browser's (`stickers transcript`'s target: under 3).
        package var transcriptRatio: Double?
    }

    /// Runs the benchmark on the pack at `path`. With `executable` (a `stickers` binary), the
    /// same render also runs as a whole process, start-up included, taking turns with the rest.
    package static func run(path: String, repeats: Int, threads: Int, executable: String? = nil) throws -> Result {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("stickers-render-bench-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        var options = RenderOptions()
        options.style = .expanded
        options.scale = 3
        options.threads = threads
        let pack = try PackLoader.load(path: path)
        let layout = BrowserRenderer(pack: pack, options: options).layout
        let command = montageCommand(
            pack: pack, layout: layout, output: scratch.appendingPathComponent("montage.png").path)
        let hasMontage = FileManager.default.isExecutableFile(atPath: "/usr/bin/montage")

        var ours: [Double] = []
        var load: [Double] = []
        var draw: [Double] = []
        var encode: [Double] = []
        var montage: [Double] = []
        var process: [Double] = []
        var transcript: [Double] = []
        var transcriptOptions = TranscriptOptions()
        transcriptOptions.scale = 3
        let transcriptOutput = scratch.appendingPathComponent("transcript.png").path
        let output = scratch.appendingPathComponent("ours.png").path
        let processCommand = executable.map {
            [
                $0, "render", path, "--style", "expanded", "--scale", "3", "--background", "light",
                "-o", scratch.appendingPathComponent("process.png").path
            ]
        }
        for _ in 0..<repeats {
            let t0 = DispatchTime.now().uptimeNanoseconds
            let loaded = try PackLoader.load(path: path)
            let renderer = BrowserRenderer(pack: loaded, options: options)
            let t1 = DispatchTime.now().uptimeNanoseconds
            let png = try renderer.snapshotPNG(at: 0)
            let t2 = DispatchTime.now().uptimeNanoseconds
            try AtomicFile.write(png, to: output)
            let t3 = DispatchTime.now().uptimeNanoseconds
            ours.append(Double(t3 - t0) / 1e6)
            load.append(Double(t1 - t0) / 1e6)
            draw.append(Double(t2 - t1) / 1e6)
            encode.append(Double(t3 - t2) / 1e6)
            if hasMontage { montage.append(try time(command)) }
            let t4 = DispatchTime.now().uptimeNanoseconds
            let conversationPack = try PackLoader.load(path: path)
            if let drawn = try? TranscriptRenderer(
                Conversation.default(for: conversationPack), pack: conversationPack,
                options: transcriptOptions)
            {
                try AtomicFile.write(try drawn.snapshotPNG(at: 0), to: transcriptOutput)
                transcript.append(Double(DispatchTime.now().uptimeNanoseconds - t4) / 1e6)
            }
            if let processCommand { process.append(try time(processCommand)) }
        }
        let processMs = median(process)
        let montageMs = median(montage)
        let oursMs = median(ours) ?? 0
        return Result(
            pack: path, width: layout.pixelWidth, height: layout.pixelHeight, stickers: layout.cells.count,
            repeats: repeats, oursMilliseconds: oursMs, loadMilliseconds: median(load) ?? 0,
            drawMilliseconds: median(draw) ?? 0, encodeMilliseconds: median(encode) ?? 0,
            montageMilliseconds: montageMs, ratio: montageMs.map { $0 / oursMs }, montageCommand: command,
            processMilliseconds: processMs,
            processRatio: montageMs.flatMap { m in processMs.map { m / $0 } },
            transcriptMilliseconds: median(transcript), transcriptRatio: median(transcript).map { $0 / oursMs })
    }

    /// The same grid for montage: first frames, the cell size and spacing of our layout, the
    /// same background, PNG out.
    static func montageCommand(pack: StickerPack, layout: BrowserLayout, output: String) -> [String] {
        let side = layout.cells.first?.pixels.width ?? 1
        let gapX = Int((layout.gap * Double(layout.scale) / 2).rounded())
        let gapY = Int((BrowserLayout.lineSpacing * Double(layout.scale) / 2).rounded())
        let files = layout.cells.map { pack.stickers[$0.index].files[0].path + "[0]" }
        return ["/usr/bin/montage"] + files + [
            "-tile", "\(layout.columns)x", "-geometry", "\(side)x\(side)+\(gapX)+\(gapY)",
            "-background", "#F2F2F7", output
        ]
    }

    /// Wall time of one run of `command`, in milliseconds: posix_spawn and wait4, no polling
    /// (Foundation's `Process.waitUntilExit` polls and adds up to 50 ms).
    private static func time(_ command: [String]) throws -> Double {
        try ChildProcess.run(command).wallSeconds * 1000
    }

    /// The result as a short table.
    package static func text(_ r: Result) -> String {
        var lines = [
            "render: \(r.pack), expanded @3x, \(r.width)x\(r.height) px, \(r.stickers) stickers, \(r.repeats) repeats (medians)",
            "  stickers  \(fixed(r.oursMilliseconds)) ms  (load \(fixed(r.loadMilliseconds)), decode+scale+compose+encode \(fixed(r.drawMilliseconds)), write \(fixed(r.encodeMilliseconds)))"
        ]
        if let p = r.processMilliseconds {
            lines.append(
                "  process   \(fixed(p)) ms  (stickers render as a whole process: start-up \(fixed(p - r.oursMilliseconds)) ms over the in-process time)"
            )
        }
        if let m = r.montageMilliseconds, let ratio = r.ratio {
            lines.append("  montage   \(fixed(m)) ms  (same files' first frames, same cells and spacing, PNG out)")
            lines.append(
                "  ratio     \(String(cFormat: "%.1f", ratio))x faster than montage in process"
                    + (r.processRatio.map { String(cFormat: ", %.1fx as whole processes", $0) } ?? ""))
        } else {
            lines.append("  montage   not installed (apt-get install imagemagick)")
        }
        if let t = r.transcriptMilliseconds, let ratio = r.transcriptRatio {
            lines.append(
                "  transcript \(fixed(t)) ms  (the pack's default conversation, one screen @3x, PNG: "
                    + String(cFormat: "%.2fx", ratio) + " the browser's time; the target is under 3x)")
        } else {
            lines.append("  transcript not measured (its fonts are missing: apt-get install fonts-inter)")
        }
        return lines.joined(separator: "\n")
    }

    private static func fixed(_ value: Double) -> String { String(cFormat: "%.1f", value) }
}
