import AnimationCodec
import Dispatch
import FoundationEssentials
import StickerFit
import StickerPack

#if canImport(Glibc)
    import Glibc
#endif

/// `stickers bench --fit`: for every sticker of a pack, the frames `fit`'s exact steps encode
/// are given both to our encoder and to apngasm (Debian's, its default options: 7-zip deflate,
/// 15 iterations), taking turns; sizes and times side by side. Also `stickers fit` on the whole
/// pack as a process, as a user runs it.
package enum FitBench {
    /// One sticker's figures; times are medians, milliseconds.
    package struct Entry: Sendable, Encodable {
        /// The sticker.
        package var name: String
        /// Frames encoded.
        package var frames: Int
        /// Our file's size.
        package var oursBytes: Int
        /// apngasm's file's size (nil when it did not run).
        package var apngasmBytes: Int?
        /// Our encode time.
        package var oursMilliseconds: Double
        /// apngasm's time as a process (reading the frame PNGs it is given, writing its file).
        package var apngasmMilliseconds: Double?
        /// Whether apngasm's file decodes to exactly the frames ours does (the same input).
        package var apngasmAgrees: Bool?
        /// apngasm bytes / ours (above 1: ours is smaller).
        package var sizeRatio: Double?
        /// apngasm time / ours (above 1: ours is faster).
        package var speedRatio: Double?
    }

    /// The whole run.
    package struct Result: Sendable, Encodable {
        /// The pack.
        package var pack: String
        /// The size class encoded.
        package var size: String
        /// Runs per tool and sticker.
        package var repeats: Int
        /// Our encoder's threads.
        package var threads: Int
        /// Per sticker.
        package var stickers: [Entry]
        /// Sums over the stickers apngasm encoded.
        package var oursBytes: Int, apngasmBytes: Int?, oursMilliseconds: Double, apngasmMilliseconds: Double?
        /// `stickers fit PACK` as a whole process, median milliseconds (nil when not measured).
        package var fitProcessMilliseconds: Double?
        /// The apngasm command line shape.
        package var apngasmCommand: [String]
    }

    /// Runs the comparison on the pack at `path`; `executable` (this `stickers`) also times the
    /// whole `fit` command as a process.
    package static func run(path: String, repeats: Int, threads: Int, executable: String? = nil) throws -> Result {
        let pack = try PackLoader.load(path: path)
        let size = pack.declaredGridSize ?? .regular
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("stickers-fit-bench-\(getpid())")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let apngasm = which("apngasm")
        var entries: [Entry] = []
        for (index, sticker) in pack.stickers.enumerated() {
            guard let exact = try ExactFrames.of(sticker, size: size, options: FitOptions(threads: threads)) else {
                continue
            }
            let folder = scratch.appendingPathComponent("s\(index)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            var names: [String] = []
            for (frame, (pixels, delay)) in zip(exact.frames, exact.delays).enumerated() {
                let name = String(cFormat: "frame%03ld", frame + 1)
                try Data(PNGEncoder.encode(premultiplied: pixels, width: exact.side, height: exact.side)).write(
                    to: folder.appendingPathComponent(name + ".png"))
                let (numerator, denominator) = (delay.numerator, delay.denominator)
                try Data("delay=\(numerator)/\(denominator)\n".utf8).write(
                    to: folder.appendingPathComponent(name + ".txt"))
                names.append(name + ".png")
            }
            var ours: [Double] = []
            var theirs: [Double] = []
            var oursBytes = 0
            var theirBytes: Int?
            var agrees: Bool?
            for _ in 0..<repeats {
                let start = DispatchTime.now().uptimeNanoseconds
                oursBytes = exact.encode(threads: threads).bytes.count
                ours.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                if let apngasm {
                    let output = folder.appendingPathComponent("apngasm.png").path
                    let run = try ChildProcess.run(
                        [apngasm, output] + names.map { folder.appendingPathComponent($0).path })
                    if run.status == 0 {
                        theirs.append(run.wallSeconds * 1000)
                        let file = [UInt8]((try? Data(contentsOf: URL(fileURLWithPath: output))) ?? Data())
                        theirBytes = file.count
                        agrees =
                            (try? AnimationDecoder(bytes: file).decodeAllFrames(threads: 1).map(\.pixels))
                            == exact.frames
                    }
                }
            }
            let oursMs = median(ours) ?? 0
            let theirMs = median(theirs)
            entries.append(
                Entry(
                    name: sticker.name, frames: exact.frames.count, oursBytes: oursBytes, apngasmBytes: theirBytes,
                    oursMilliseconds: oursMs, apngasmMilliseconds: theirMs, apngasmAgrees: agrees,
                    sizeRatio: theirBytes.map { Double($0) / Double(oursBytes) },
                    speedRatio: theirMs.map { $0 / oursMs }))
        }
        var process: Double?
        if let executable {
            var times: [Double] = []
            for _ in 0..<repeats {
                let run = try ChildProcess.run([
                    executable, "fit", path, "-o", scratch.appendingPathComponent("fit.xcstickers").path,
                    "--threads", String(threads), "--progress", "none"
                ])
                times.append(run.wallSeconds * 1000)
            }
            process = median(times)
        }
        let compared = entries.filter { $0.apngasmBytes != nil }
        return Result(
            pack: path, size: size.rawValue, repeats: repeats, threads: threads, stickers: entries,
            oursBytes: compared.reduce(0) { $0 + $1.oursBytes },
            apngasmBytes: compared.isEmpty ? nil : compared.reduce(0) { $0 + ($1.apngasmBytes ?? 0) },
            oursMilliseconds: compared.reduce(0) { $0 + $1.oursMilliseconds },
            apngasmMilliseconds: compared.isEmpty ? nil : compared.reduce(0) { $0 + ($1.apngasmMilliseconds ?? 0) },
            fitProcessMilliseconds: process, apngasmCommand: ["apngasm", "OUT.png", "frame001.png", "..."])
    }

    /// The table `stickers bench --fit` prints.
    package static func text(_ result: Result) -> String {
        func ms(_ value: Double?) -> String { value.map { String(cFormat: "%.0f ms", $0) } ?? "-" }
        func ratio(_ value: Double?) -> String { value.map { String(cFormat: "%.2fx", $0) } ?? "-" }
        var lines = [
            "fit's exact steps vs apngasm (default options) on \(result.pack), \(result.size), medians of \(result.repeats), \(counted(result.threads, "thread"))",
            "sticker                        frames   ours bytes  apngasm bytes  size ratio   ours ms  apngasm ms  speed ratio"
        ]
        for entry in result.stickers {
            lines.append(
                pad(entry.name, 30) + lpad(String(entry.frames), 7) + lpad(String(entry.oursBytes), 13)
                    + lpad(entry.apngasmBytes.map(String.init) ?? "-", 15) + lpad(ratio(entry.sizeRatio), 12)
                    + lpad(ms(entry.oursMilliseconds), 10) + lpad(ms(entry.apngasmMilliseconds), 12)
                    + lpad(ratio(entry.speedRatio), 13))
        }
        if let theirBytes = result.apngasmBytes, let theirMs = result.apngasmMilliseconds {
            lines.append(
                pad("total", 37) + lpad(String(result.oursBytes), 13) + lpad(String(theirBytes), 15)
                    + lpad(ratio(Double(theirBytes) / Double(max(1, result.oursBytes))), 12)
                    + lpad(ms(result.oursMilliseconds), 10) + lpad(ms(theirMs), 12)
                    + lpad(ratio(theirMs / result.oursMilliseconds), 13))
            lines.append("size ratio = apngasm bytes / ours (>= 1: ours no larger); speed ratio = apngasm time / ours")
        } else {
            lines.append("apngasm is not installed (Debian: apt-get install apngasm): our sizes and times only")
        }
        if let process = result.fitProcessMilliseconds {
            lines.append("stickers fit \(result.pack) as a process: " + String(cFormat: "%.0f ms", process))
        }
        return lines.joined(separator: "\n")
    }

    private static func which(_ tool: String) -> String? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        return paths.map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
