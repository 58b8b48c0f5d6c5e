import AnimationCodec
import FoundationEssentials
import StickerPack

#if canImport(Glibc)
    import Glibc
#endif

/// `stickers bench --review`: `stickers review` as a user runs it, a process timed from outside:
/// the pack's review, and a folder of 50 one-sticker packs made from the pack's stickers,
/// reviewed on one core and on two (`taskset`), taking turns.
package enum ReviewBench {
    /// The figures; times are medians, milliseconds.
    package struct Result: Sendable, Encodable {
        /// The pack.
        package var pack: String
        /// Runs per measurement.
        package var repeats: Int
        /// `stickers review PACK` as a process, on every core.
        package var packMilliseconds: Double
        /// The target for it: under 2 s.
        package var packTargetMilliseconds: Double
        /// Packs in the folder.
        package var packs: Int
        /// `stickers review` of every pack of the folder, limited to one core.
        package var oneCoreMilliseconds: Double
        /// The same, on two cores.
        package var twoCoreMilliseconds: Double
        /// One core's time over two cores' (the target: 1.7 or more).
        package var speedup: Double
        /// The cores this machine has.
        package var cores: Int
    }

    /// The folder's pack count.
    package static let packCount = 50

    /// Measures `executable` (a `stickers` binary) reviewing the pack at `path`.
    package static func run(path: String, repeats: Int, executable: String) throws -> Result {
        let pack = try PackLoader.load(path: path)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("stickers-review-bench-\(getpid())")
        try? FileManager.default.removeItem(at: scratch)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let files = pack.stickers.compactMap { sticker -> URL? in
            if case .file(let url) = sticker.source { return url }
            return nil
        }
        guard !files.isEmpty else {
            throw PackError.notAPack(path: path, reason: "no sticker is a single file to copy into the packs")
        }
        var folders: [String] = []
        for index in 0..<packCount {
            let folder = scratch.appendingPathComponent(String(cFormat: "packs/pack-%02ld", index + 1))
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let file = files[index % files.count]
            try FileManager.default.copyItem(at: file, to: folder.appendingPathComponent(file.lastPathComponent))
            folders.append(folder.path)
        }
        let output = scratch.appendingPathComponent("review").path
        func time(_ arguments: [String]) throws -> Double {
            let result = try ChildProcess.run(arguments + ["-o", output, "--progress", "none"])
            // Exit status 1 means a pack broke a rule: the pages are written all the same.
            guard result.status == 0 || result.status == 1 else {
                throw PackError.notAPack(path: path, reason: "stickers review exited with status \(result.status)")
            }
            return result.wallSeconds * 1000
        }
        var packTimes: [Double] = []
        var one: [Double] = []
        var two: [Double] = []
        let cores = max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        _ = try time([executable, "review", path])
        for _ in 0..<repeats {
            packTimes.append(try time([executable, "review", path]))
        }
        // The folder takes seconds a run: fewer turns, one core and two alternating.
        for _ in 0..<max(1, min(repeats, 3)) {
            one.append(try time(["taskset", "-c", "0", executable, "review"] + folders + ["--threads", "1"]))
            two.append(
                try time(
                    ["taskset", "-c", cores > 1 ? "0,1" : "0", executable, "review"] + folders + ["--threads", "2"]))
        }
        let oneMs = median(one) ?? 0
        let twoMs = median(two) ?? 0
        return Result(
            pack: path, repeats: repeats, packMilliseconds: median(packTimes) ?? 0, packTargetMilliseconds: 2000,
            packs: packCount, oneCoreMilliseconds: oneMs, twoCoreMilliseconds: twoMs,
            speedup: twoMs > 0 ? oneMs / twoMs : 0, cores: cores)
    }

    /// The table.
    package static func text(_ result: Result) -> String {
        let packVerdict = result.packMilliseconds < result.packTargetMilliseconds ? "met" : "NOT met"
        let speedupVerdict =
            result.speedup >= 1.7 ? "met" : (result.cores < 2 ? "not measurable on one core" : "NOT met")
        return [
            "review bench: \(result.pack), \(counted(result.repeats, "run")) each, medians, \(counted(result.cores, "core"))",
            String(cFormat: "  stickers review PACK (a process, every core):  %8.0f ms", result.packMilliseconds)
                + "   target under \(Int(result.packTargetMilliseconds)) ms: \(packVerdict)",
            String(
                cFormat: "  %ld one-sticker packs, one core:                %8.0f ms", result.packs,
                result.oneCoreMilliseconds),
            String(
                cFormat: "  %ld one-sticker packs, two cores:               %8.0f ms", result.packs,
                result.twoCoreMilliseconds),
            String(cFormat: "  two cores over one:                            %8.2fx", result.speedup)
                + "  target 1.7x or more: \(speedupVerdict)"
        ].joined(separator: "\n")
    }
}
