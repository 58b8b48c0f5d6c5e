import AnimationCodec
import FoundationEssentials
import StickerFit
import StickerPack

#if canImport(Glibc)
    import Glibc
#endif

/// `stickers bench --fit-peer`: `stickers fit` (this executable, as a process, default options,
/// regular size) and sticker-convert (its `imessage_medium` preset, as a process) on the same
/// input files, each run timed whole. Every file either tool writes is decoded by StickerKit's
/// decoder and compared, at each input frame's start time, with the input scaled to 408 px as
/// `fit` scales it (see ``ShownFrames`` and ``ShownFidelity``).
package enum FitPeerBench {
    /// An input sticker as given.
    package struct Input: Sendable, Encodable {
        /// Its file.
        package var file: String
        /// Its size in bytes.
        package var bytes: Int
        /// Canvas size in pixels (nil when it does not decode).
        package var width: Int?, height: Int?
        /// Frames, frames per second and loop length with Apple's display timing.
        package var frames: Int?, framesPerSecond: Double?, loopSeconds: Double?
        /// Why it could not be read, when it could not.
        package var failure: String?
    }

    /// What one tool made of one sticker.
    package struct Output: Sendable, Encodable {
        /// Whether the tool made a file that decodes, is 408 x 408 and within the byte budget.
        package var produced: Bool
        /// Why not, when not.
        package var failure: String?
        /// The file, relative to the tool's output folder.
        package var file: String?
        /// Its size in bytes.
        package var bytes: Int?
        /// Frames, frames per second over the loop (0 for a still) and the loop's length in
        /// seconds, as decoded with Apple's display timing.
        package var frames: Int?, framesPerSecond: Double?, loopSeconds: Double?
        /// The largest channel difference from the reference (0: exact).
        package var maxError: Int?
        /// PSNR in dB against the reference; absent when exact (maxError 0) or not measured.
        package var psnr: Double?
        /// Mean SSIM against the reference (``StructuralSimilarity``); absent when exact or not measured.
        package var ssim: Double?
        /// Seconds the tool spent on this sticker, when it says (fit's report does;
        /// sticker-convert logs no times).
        package var seconds: Double?
        /// The PSNR the tool itself reported (fit's report), for comparison.
        package var reportedPSNR: Double?
        /// Peak resident memory of `stickers fit` run on this sticker alone (`--dry-run`), in
        /// bytes; fit's only (sticker-convert is measured as one run).
        package var peakResidentBytes: Int?
        /// The sticker's frames scaled to the size's square, as fit holds them: frames x side²
        /// x 4 bytes (the yardstick for ``peakResidentBytes``).
        package var scaledFramesBytes: Int?
        /// Seconds `stickers fit` took on this sticker alone (`--dry-run`, its report's figure);
        /// fit's only.
        package var aloneSeconds: Double?
        /// The same under `--strict` (a sticker made with visible loss is refused, and the
        /// options that make it are proven): its seconds, and whether it was refused.
        package var strictSeconds: Double?, strictRefused: Bool?

        static func failed(_ reason: String) -> Output { Output(produced: false, failure: reason) }
    }

    /// One sticker: the input and both outputs.
    package struct Entry: Sendable, Encodable {
        /// The sticker's name.
        package var name: String
        /// The input.
        package var input: Input
        /// `stickers fit`'s file.
        package var ours: Output
        /// sticker-convert's file.
        package var peer: Output
    }

    /// One tool's sums.
    package struct Total: Sendable, Encodable {
        /// Stickers it produced (within budget, decoding at 408 px).
        package var produced: Int
        /// Stickers it did not.
        package var failed: Int
        /// Bytes of the stickers it produced.
        package var bytes: Int
        /// The lowest PSNR of the stickers it produced; absent when all were exact.
        package var lowestPSNR: Double?
        /// The whole run's wall-clock seconds.
        package var wallSeconds: Double
        /// The process's exit status.
        package var exitStatus: Int32
        /// The command line (paths as run).
        package var command: [String]
    }

    /// The whole comparison.
    package struct Result: Sendable, Encodable {
        /// The inputs as named.
        package var inputs: String
        /// The size class and its square's side in pixels.
        package var size: String, side: Int
        /// The byte budget per file.
        package var maxBytes: Int
        /// sticker-convert's version (`--version`).
        package var peerVersion: String?
        /// Its preset.
        package var peerPreset: String
        /// Per sticker, in input order.
        package var stickers: [Entry]
        /// Inputs not compared (sticker sequences), by name.
        package var skipped: [String]
        /// `stickers fit` and sticker-convert.
        package var ours: Total, peer: Total
        /// sticker-convert's wall time / ours (above 1: ours is faster).
        package var speedRatio: Double
        /// Where both tools' outputs were kept (nil: deleted).
        package var keptIn: String?
    }

    /// sticker-convert's budget for `imessage_medium` and Apple's limit as `fit` counts it.
    static let maxBytes = 500_000

    /// Runs both tools on the stickers of `path` (a folder, catalog or file), with this
    /// `executable` for `stickers fit` and `peer` for sticker-convert. `threads` goes to fit as
    /// --threads when given (its default: every core) and to decoding the references. With
    /// `keep`, the inputs as given to both tools and both outputs stay in that folder.
    package static func run(path: String, executable: String, peer: String, threads: Int?, keep: String? = nil) throws
        -> Result
    {
        let pack = try PackLoader.load(path: path)
        let scratch =
            keep.map { URL(fileURLWithPath: $0) }
            ?? FileManager.default.temporaryDirectory.appendingPathComponent("stickers-fit-peer-\(getpid())")
        let inputs = scratch.appendingPathComponent("inputs")
        let ourCatalog = scratch.appendingPathComponent("stickers-fit.xcstickers")
        let peerFolder = scratch.appendingPathComponent("sticker-convert")
        for folder in [inputs, ourCatalog, peerFolder] { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: inputs, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: peerFolder, withIntermediateDirectories: true)
        defer { if keep == nil { try? FileManager.default.removeItem(at: scratch) } }

        let staged = try stage(pack.stickers, in: inputs)
        let oursCommand =
            [
                executable, "fit", inputs.path, "-o", ourCatalog.path, "--size", StickerSize.regular.rawValue,
                "--json", "--progress", "none"
            ] + (threads.map { ["--threads", String($0)] } ?? [])
        let oursRun = try ChildProcess.run(
            oursCommand, keepOutput: true, errorPath: scratch.appendingPathComponent("fit.stderr").path)
        let report = try? JSONDecoder().decode(FitReport.self, from: Data(oursRun.output))
        let peerCommand = StickerConvertPeer.command(peer, input: inputs.path, output: peerFolder.path)
        let peerRun = try ChildProcess.run(
            peerCommand, keepOutput: true, errorPath: scratch.appendingPathComponent("sticker-convert.stderr").path)
        let log = String(decoding: peerRun.output, as: UTF8.self)
        try Data(peerRun.output).write(to: scratch.appendingPathComponent("sticker-convert.log"))
        let oursFailure = report == nil ? "stickers fit exited with status \(oursRun.status) and no report" : nil

        let side = StickerSize.regular.pixels
        let measureThreads = threads ?? AnimationDecoder.defaultThreadCount
        var entries: [Entry] = []
        for stage in staged {
            let input: Input
            var reference: ShownFrames?
            do {
                let animation = try StickerAnimation.load(stage.sticker)
                let shown = try ShownFrames.reference(animation, side: side, threads: measureThreads)
                // Scaling keeps every frame and its time: the reference's timing is the input's.
                input = Input(
                    file: stage.original, bytes: animation.fileBytes, width: animation.width, height: animation.height,
                    frames: shown.count, framesPerSecond: shown.framesPerSecond, loopSeconds: shown.loopSeconds)
                reference = shown
            } catch {
                input = Input(file: stage.original, bytes: fileSize(stage.original) ?? 0, failure: "\(error)")
            }
            var ours: Output
            if let oursFailure {
                ours = .failed(oursFailure)
            } else if let entry = report?.stickers.first(where: { $0.name == stage.stem }) {
                if entry.fitted, let file = entry.files.first {
                    let relative = "\(CatalogWriter.packFolderName)/\(stage.stem).sticker/\(file)"
                    ours = measure(
                        ourCatalog.appendingPathComponent(relative), named: relative, against: reference, side: side)
                } else {
                    ours = .failed(entry.failure ?? "not fitted")
                }
                ours.seconds = entry.seconds
                ours.reportedPSNR = entry.psnr
                // The sticker alone, for its peak memory and time (the whole run mixes every
                // sticker's), and under --strict, for what a refusal costs. Its own report says
                // (a spawned child's ru_maxrss starts from the parent's).
                func alone(_ extra: [String]) throws -> FitReport? {
                    let run = try ChildProcess.run(
                        [
                            executable, "fit", inputs.appendingPathComponent(stage.stagedName).path, "--dry-run",
                            "--json", "--size", StickerSize.regular.rawValue, "--progress", "none"
                        ] + (threads.map { ["--threads", String($0)] } ?? []) + extra,
                        keepOutput: true, errorPath: scratch.appendingPathComponent("fit-alone.stderr").path)
                    return try? JSONDecoder().decode(FitReport.self, from: Data(run.output))
                }
                let aloneReport = try alone([])
                ours.peakResidentBytes = aloneReport?.peakResidentBytes
                ours.aloneSeconds = aloneReport?.stickers.first?.seconds
                ours.scaledFramesBytes = input.frames.map { $0 * side * side * 4 }
                if let strict = try alone(["--strict"])?.stickers.first {
                    ours.strictSeconds = strict.seconds
                    ours.strictRefused = !strict.fitted
                }
            } else {
                ours = .failed("not in fit's report")
            }
            var theirs: Output
            let peerFile = StickerConvertPeer.outputName(stem: stage.stem)
            if FileManager.default.fileExists(atPath: peerFolder.appendingPathComponent(peerFile).path) {
                theirs = measure(
                    peerFolder.appendingPathComponent(peerFile), named: peerFile, against: reference, side: side)
            } else {
                theirs = .failed(
                    StickerConvertPeer.failure(in: log, inputName: stage.stagedName).map {
                        $0.replacing(stage.stagedName, with: stage.sticker.name)
                    }
                        ?? "no output (sticker-convert exited with status \(peerRun.status))")
            }
            entries.append(Entry(name: stage.sticker.name, input: input, ours: ours, peer: theirs))
        }
        let skipped = pack.stickers.filter { if case .sequence = $0.source { return true } else { return false } }.map(
            \.name)
        let ourTotal = total(
            entries.map(\.ours), wall: oursRun.wallSeconds, status: oursRun.status, command: oursCommand)
        let peerTotal = total(
            entries.map(\.peer), wall: peerRun.wallSeconds, status: peerRun.status, command: peerCommand)
        return Result(
            inputs: path, size: StickerSize.regular.rawValue, side: side, maxBytes: maxBytes,
            peerVersion: StickerConvertPeer.version(peer, scratch: scratch), peerPreset: StickerConvertPeer.preset,
            stickers: entries, skipped: skipped, ours: ourTotal, peer: peerTotal,
            speedRatio: peerRun.wallSeconds / max(oursRun.wallSeconds, 1e-9), keptIn: keep == nil ? nil : scratch.path)
    }

    /// An input file as both tools are given it.
    private struct Staged {
        /// The sticker, read from the original file.
        var sticker: Sticker
        /// The original file's path.
        var original: String
        /// The name both tools see without extension ("001", "002", ...): distinct, and free
        /// of anything either tool reads into a name.
        var stem: String
        /// The name both tools see.
        var stagedName: String
    }

    /// Every file sticker of `stickers` as a symbolic link in `folder`, numbered in order, so
    /// both tools read the same files under names neither changes.
    private static func stage(_ stickers: [Sticker], in folder: URL) throws -> [Staged] {
        var staged: [Staged] = []
        for sticker in stickers {
            guard case .file(let url) = sticker.source else { continue }
            let stem = String(cFormat: "%03ld", staged.count + 1)
            var ext = url.pathExtension.lowercased()
            if ext.isEmpty {
                ext =
                    ImageFormat.sniff(BoundedFile.head(url.path, count: 16)).map { $0 == .apng ? "png" : $0.rawValue }
                    ?? "png"
            }
            let name = stem + "." + ext
            let target = url.standardizedFileURL.path
            try FileManager.default.createSymbolicLink(
                atPath: folder.appendingPathComponent(name).path, withDestinationPath: target)
            staged.append(Staged(sticker: sticker, original: url.path, stem: stem, stagedName: name))
        }
        return staged
    }

    /// The file at `url` decoded and compared with `reference`.
    private static func measure(_ url: URL, named name: String, against reference: ShownFrames?, side: Int) -> Output {
        guard let bytes = try? [UInt8](Data(contentsOf: url)) else {
            return Output(produced: false, failure: "\(name) cannot be read", file: name)
        }
        var output = Output(produced: false, file: name, bytes: bytes.count)
        let shown: ShownFrames
        do {
            shown = try ShownFrames.decode(bytes)
        } catch {
            output.failure = "does not decode: \(error)"
            return output
        }
        output.frames = shown.count
        output.framesPerSecond = shown.framesPerSecond
        output.loopSeconds = shown.loopSeconds
        if let reference, let fidelity = ShownFidelity.measure(shown, against: reference) {
            output.maxError = fidelity.maxError
            output.psnr = fidelity.psnr
            output.ssim = fidelity.ssim
        }
        if (shown.width, shown.height) != (side, side) {
            output.failure = "\(shown.width)x\(shown.height), not \(side)x\(side)"
        } else if bytes.count > maxBytes {
            output.failure = "\(bytes.count) bytes: over \(maxBytes)"
        } else {
            output.produced = true
        }
        return output
    }

    private static func total(_ outputs: [Output], wall: Double, status: Int32, command: [String]) -> Total {
        let produced = outputs.filter(\.produced)
        return Total(
            produced: produced.count, failed: outputs.count - produced.count,
            bytes: produced.reduce(0) { $0 + ($1.bytes ?? 0) },
            lowestPSNR: produced.compactMap(\.psnr).min(), wallSeconds: wall, exitStatus: status, command: command)
    }

    private static func fileSize(_ path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
    }
}
