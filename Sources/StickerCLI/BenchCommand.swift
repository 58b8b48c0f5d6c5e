import AnimationCodec
import ArgumentParser
import FoundationEssentials
import StickerBench
import StickerPack

/// `stickers bench [FILE|DIR ...] [--threads N] [--repeat N] [--json]`, and its comparisons
/// with other tools (`--render`, `--fit`, `--fit-peer`, `--preview`).
public struct BenchCommand: ParsableCommand {
    /// Command name and help.
    public static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure decoding speed against the libpng and giflib baselines, in the same run.",
        discussion: """
            Every file is decoded once untimed by each decoder (a warm-up), then exactly --repeat times each (all frames, composited) in turns of up to 10 decodes that go round the files, so a whole run can also be timed from outside; each figure is the median over the turns, each ratio the median of the turns' own. Reports MP/s (frames x W x H per second), ms per file, the phase split, peak memory and our speed as a ratio to each baseline. Without arguments it benchmarks corpus/sample-pack. --render, --fit, --fit-peer, --preview and --review compare other work with other tools instead (see each).
            """)

    /// Files or folders to measure.
    @Argument(
        help: ArgumentHelp("Files or folders (folders: every image inside, sorted).", valueName: "file|dir"),
        completion: .file())
    public var paths: [String] = []

    /// Worker threads for the parallel measurement; nil means every core.
    @Option(
        name: .customLong("threads"),
        help: "Threads for the parallel measurement (1 measures single-thread only; default: every core).")
    public var requestedThreads: Int?

    /// The threads the measurement uses.
    var threads: Int { requestedThreads ?? AnimationDecoder.defaultThreadCount }

    /// Decodes per file and decoder.
    @Option(name: .customLong("repeat"), help: "Decode every file exactly this many times per decoder.")
    public var repeats: Int = 5

    /// What to measure: the decoders (the default), or one comparison with another tool.
    @Flag(exclusivity: .exclusive, help: nil)
    public var mode: Mode = .decode

    /// The sticker-convert program for --fit-peer.
    @Option(
        name: .customLong("sticker-convert"),
        help: ArgumentHelp(
            "The sticker-convert program for --fit-peer (default: $STICKER_CONVERT_VENV/bin/sticker-convert, .build-peers/sticker-convert, /opt/sticker-convert, then PATH; scripts/setup-sticker-convert.sh installs it).",
            valueName: "path"), completion: .file())
    public var stickerConvert: String?

    /// Where --fit-peer keeps the inputs as given and both tools' outputs.
    @Option(
        help: ArgumentHelp(
            "Keep the inputs as both tools were given them and both tools' outputs in this folder (--fit-peer; default: deleted).",
            valueName: "dir"), completion: .directory)
    public var keep: String?

    /// Cells for --preview.
    @Option(help: ArgumentHelp("Cells for --preview.", valueName: "WxH"))
    public var cells = "60x30"

    /// Seconds of playback for --preview.
    @Option(name: .customLong("seconds"), help: "Seconds of playback per --preview run.")
    var secondsNumber = DecimalNumber(4)

    /// `--seconds`.
    public var seconds: Double {
        get { secondsNumber.value }
        set { secondsNumber = DecimalNumber(newValue) }
    }

    /// Another `stickers` binary to take turns with (decoding only).
    @Option(
        help: ArgumentHelp(
            "Time this build against another stickers binary (an older commit's or a release's): both decode each file on one thread as their own bench --json measures it, taking turns file by file for --rounds rounds, and the table gives each side's MP/s and the ratio with its spread.",
            valueName: "binary"), completion: .file())
    public var against: String?

    /// Rounds of --against.
    @Option(help: "Rounds for --against (each binary runs each file once a round).")
    public var rounds = 7

    /// Emit JSON.
    @Flag(help: "Print JSON instead of a table.")
    public var json = false

    /// Creates the command (argument parsing fills it in).
    public init() {}

    /// What `stickers bench` measures: one flag each, at most one given.
    public enum Mode: String, EnumerableFlag, Sendable {
        /// The decoders against libpng and giflib (the default).
        case decode
        /// The expanded 3x browser against ImageMagick montage.
        case render
        /// fit's exact encoding against apngasm.
        case fit
        /// `stickers fit` as a whole against sticker-convert.
        case fitPeer
        /// `stickers review` as a process, on one core and on two.
        case review
        /// The terminal preview against chafa.
        case preview
        /// Ours alone on one thread, no timing: the work the instruction-count guard counts.
        case oursOnly

        /// `--fit-peer` for ``fitPeer``; each other case's own name.
        public static func name(for value: Mode) -> NameSpecification {
            switch value {
            case .fitPeer: return .customLong("fit-peer")
            case .oursOnly: return .customLong("ours-only")
            default: return .long
            }
        }

        /// Each flag's help.
        public static func help(for value: Mode) -> ArgumentHelp? {
            switch value {
            case .decode:
                return "Decode the files with ours, libpng and giflib."
            case .render:
                return
                    "Render the pack's expanded browser at 3x and compare with ImageMagick montage building the same grid."
            case .fit:
                return
                    "Encode each sticker of the pack as fit's exact steps do and with apngasm (the same frames), and time stickers fit on the whole pack as a process."
            case .fitPeer:
                return
                    "Run stickers fit (default options, regular size) and sticker-convert (--preset imessage_medium) on the same inputs, once each (--repeat does not apply), and compare bytes, PSNR against the same reference, frames, frame rate, loop length and time."
            case .review:
                return
                    "Time stickers review on the pack as a process (target: under 2 s), and on a folder of 50 one-sticker packs made from it on one core and on two (target: 1.7x or more)."
            case .preview:
                return
                    "Play FILE with stickers preview and with chafa (same cells, same colours) and compare CPU per second and bytes per frame, in half blocks and with each graphics protocol."
            case .oursOnly:
                return
                    "Decode the files with ours alone, on one thread (or --threads), --repeat times each, untimed, and print each file's frames: the work scripts/instruction-guard.py counts under cachegrind, and a profiler's target."
            }
        }
    }

    /// Rejects nonsense before running.
    public func validate() throws {
        try OptionBounds.check(requestedThreads, in: OptionBounds.threads, "--threads")
        try OptionBounds.check(repeats, in: OptionBounds.repeats, "--repeat")
        guard mode == .fitPeer || (stickerConvert == nil && keep == nil) else {
            throw ValidationError("--sticker-convert and --keep go with --fit-peer.")
        }
        if keep?.isEmpty == true { throw ValidationError("--keep " + OutputFolder.emptyPathMessage) }
        guard against == nil || mode == .decode else { throw ValidationError("--against goes with --decode.") }
        try OptionBounds.check(rounds, in: OptionBounds.repeats, "--rounds")
        guard seconds > 0, seconds <= 3600 else { throw ValidationError("--seconds must be over 0 and at most 3600.") }
        guard previewCells != nil else {
            throw ValidationError("--cells must be WxH, at least 2x1, for example 60x30.")
        }
    }

    /// `--cells` as columns and rows, when it reads as at least 2 x 1 (up to 10,000 each).
    private var previewCells: (columns: Int, rows: Int)? {
        let parts = cells.lowercased().split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 2, let columns = parts[0], let rows = parts[1], (2...10_000).contains(columns),
            (1...10_000).contains(rows)
        else { return nil }
        return (columns, rows)
    }

    /// The sticker-convert program --fit-peer would run (`--sticker-convert` aside), or nil
    /// when it is not installed.
    public static var installedStickerConvert: String? { try? StickerConvertPeer.locate() }

    /// Runs the benchmark.
    public func run() throws {
        switch mode {
        case .preview:
            let file = paths.first ?? "corpus/sample-pack/02-spinning-star.gif"
            guard let (columns, rows) = previewCells else { throw CLIError("--cells must be WxH, for example 60x30") }
            let result: PreviewBench.Result
            do {
                result = try PreviewBench.run(
                    file: file, columns: columns, rows: rows, seconds: seconds,
                    repeats: repeats, colors: .truecolor)
            } catch let error as PackError {
                throw CLIError(error.description)
            }
            try emit(result, text: PreviewBench.text(result))
        case .fit:
            try emitPackBench { pack, executable in
                let result = try FitBench.run(path: pack, repeats: repeats, threads: threads, executable: executable)
                return (result, FitBench.text(result))
            }
        case .fitPeer:
            let peer: String
            do {
                peer = try StickerConvertPeer.locate(explicit: stickerConvert)
            } catch {
                throw CLIError(error.description)
            }
            try emitPackBench { pack, executable in
                guard let executable else {
                    throw CLIError("cannot find this executable (/proc/self/exe) to run stickers fit")
                }
                let result = try FitPeerBench.run(
                    path: pack, executable: executable, peer: peer, threads: requestedThreads, keep: keep)
                return (result, FitPeerBench.text(result))
            }
        case .review:
            try emitPackBench { pack, executable in
                guard let executable else {
                    throw CLIError("cannot find this executable (/proc/self/exe) to run stickers review")
                }
                let result = try ReviewBench.run(path: pack, repeats: repeats, executable: executable)
                return (result, ReviewBench.text(result))
            }
        case .render:
            try emitPackBench { pack, executable in
                let result = try RenderBench.run(path: pack, repeats: repeats, threads: threads, executable: executable)
                return (result, RenderBench.text(result))
            }
        case .decode:
            if let against {
                try compare(against: against)
            } else {
                try measureDecoding()
            }
        case .oursOnly:
            var decoded: [DecodedFile] = []
            for file in try imageFiles() {
                do {
                    let frames = try BenchRunner.decodeOnly(
                        path: file, repeats: repeats, threads: requestedThreads ?? 1)
                    decoded.append(DecodedFile(file: file, frames: frames))
                } catch let error as CodecError {
                    throw CLIError(path: file, error)
                }
                if !json {
                    TerminalOutput.line("\(URL(fileURLWithPath: file).lastPathComponent) \(decoded.last!.frames)")
                }
            }
            if json { try emit(decoded, text: "") }
        }
    }

    /// A file `--ours-only` decoded, and its frame count, as `--json` prints it.
    struct DecodedFile: Encodable {
        var file: String
        var frames: Int
    }

    /// The decoders against the libpng and giflib baselines, on every file of the paths.
    private func measureDecoding() throws {
        let files = try imageFiles()
        let runner = BenchRunner(threads: threads, repeats: repeats)
        let subjects: [BenchSubject]
        do {
            subjects = try runner.prepare(paths: files)
        } catch let failure as BenchRunner.FileFailure {
            throw CLIError(path: failure.path, failure.error)
        }
        let results = try runner.run(subjects)
        let limits = try runner.inflateLimits(paths: files)
        if json {
            TerminalOutput.json(text: try BenchReport.json(results, threads: threads, limits: limits))
        } else {
            TerminalOutput.line(BenchReport.text(results, threads: threads, limits: limits))
        }
    }

    /// This build against `other`, file by file in turns (see ``ABBench``).
    private func compare(against other: String) throws {
        guard FileManager.default.isExecutableFile(atPath: other) else {
            throw CLIError("\(other): not an executable file")
        }
        guard let this = Self.thisExecutable else {
            throw CLIError("cannot find this executable (/proc/self/exe) to run it as a child")
        }
        let files = try imageFiles()
        let result: ABBench.Result
        do {
            result = try ABBench.run(files: files, this: this, other: other, rounds: rounds, repeats: repeats)
        } catch let failure as ABBench.Failure {
            throw CLIError(failure.description)
        }
        try emit(result, text: ABBench.text(result))
    }

    /// Runs a benchmark over a pack (the first path, else the sample pack) that may also run
    /// this very executable again as a child, for the whole-process time a user sees.
    private func emitPackBench<Result: Encodable>(
        _ measure: (_ pack: String, _ executable: String?) throws -> (Result, String)
    ) throws {
        let executable = Self.thisExecutable
        let measured: (Result, String)
        do {
            measured = try measure(paths.first ?? "corpus/sample-pack", executable)
        } catch let error as PackError {
            throw CLIError(error.description)
        }
        try emit(measured.0, text: measured.1)
    }

    /// Prints `result` as pretty JSON with --json, else `text`.
    private func emit<Result: Encodable>(_ result: Result, text: String) throws {
        if json {
            try TerminalOutput.json(result)
        } else {
            TerminalOutput.line(text)
        }
    }

    /// This executable's path, for running it again as a child; nil when /proc cannot tell.
    static var thisExecutable: String? {
        try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    }

    /// The image files the decoding modes measure: the paths' (see ``expand(_:)``), else the
    /// sample pack's; an error when there are none.
    private func imageFiles() throws -> [String] {
        let files = try Self.expand(paths.isEmpty ? ["corpus/sample-pack"] : paths)
        guard !files.isEmpty else { throw CLIError("no image files to benchmark") }
        return files
    }

    /// Files as given, and the image files inside folders (recursively, sorted).
    static func expand(_ paths: [String]) throws -> [String] {
        var files: [String] = []
        let manager = FileManager.default
        for path in paths {
            var isDirectory = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw CLIError("\(path): no such file or folder")
            }
            guard isDirectory else { files.append(path); continue }
            // Every file whose bytes are an image the codec reads, whatever its name.
            let folder = URL(fileURLWithPath: path).resolvingSymlinksInPath()
            for inside in ((try? manager.subpathsOfDirectory(atPath: folder.path)) ?? []).sorted() {
                let url = folder.appendingPathComponent(inside)
                if PackError.nameIsNotUTF8(url), PackLoader.imageExtensions.contains(url.pathExtension.lowercased()) {
                    throw CLIError(PackError.nameNotUTF8(path: url.path).description)
                }
                guard manager.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory,
                    BoundedFile.sniffedFormat(url.path) != nil
                else { continue }
                files.append(URL(fileURLWithPath: path).appendingPathComponent(inside).path)
            }
        }
        return files
    }
}
