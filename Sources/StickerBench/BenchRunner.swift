import AnimationCodec
import CDeflate
import CZlib
import Dispatch
import FoundationEssentials
import StickerPack

/// What `stickers bench` measured for one file.
package struct BenchResult: Sendable, Encodable {
    /// The file's name.
    package var name: String
    /// The sniffed format.
    package var format: String
    /// Canvas width.
    package var width: Int
    /// Canvas height.
    package var height: Int
    /// Displayed frames.
    package var frames: Int
    /// Output megapixels of one decode (frames x W x H / 1e6).
    package var megapixels: Double
    /// Seconds for all repeats, ours on one thread: `repeats` times the median, over the
    /// turns, of a turn's seconds per decode (see ``BenchRunner``).
    package var seconds: Double
    /// Seconds for all repeats, ours on `threads` threads, estimated the same way (nil when
    /// threads == 1).
    package var parallelSeconds: Double?
    /// Seconds for all repeats of the libpng or giflib baseline, estimated the same way (nil
    /// for JPEG, and when the baseline's last frame differs from ours).
    package var baselineSeconds: Double?
    /// Ours over the baseline: the median over the turns of the baseline's seconds over ours
    /// (nil for JPEG, and when the baseline's last frame differs from ours).
    package var ratio: Double?
    /// `threads` threads over one: the median over the turns of our one-thread seconds over
    /// our `threads`-thread seconds (nil when threads == 1).
    package var speedUp: Double?
    /// Every turn's seconds per decode, in the order the turns ran.
    package var turns: Turns
    /// Where one decode's time goes (measured in a separate, instrumented pass).
    package var phases: Phases
    /// The process's peak resident memory over one decode of this file on one thread, measured
    /// before any other file's decoders were made, in bytes.
    package var peakBytes: Int?
    /// Whether the baseline's last frame agrees with ours within 1 per channel.
    package var baselineAgrees: Bool?
    /// Whether every frame of the `threads`-thread decode is bit-identical to the serial
    /// decode's (compared by CRC-32 per frame; nil when threads == 1).
    package var parallelIdentical: Bool?

    /// Each decoder's seconds per decode in every turn: the figures the medians are taken over.
    package struct Turns: Sendable, Encodable {
        /// Ours on one thread.
        package var ours: [Double]
        /// Ours on the runner's threads (empty when threads == 1).
        package var parallel: [Double]
        /// The libpng or giflib baseline (empty for JPEG).
        package var baseline: [Double]
    }

    /// Phase shares of one decode, in seconds.
    package struct Phases: Sendable, Encodable {
        /// Inflate or LZW.
        package var decompress: Double
        /// PNG unfiltering.
        package var unfilter: Double
        /// Pixel conversion and compositing (one pass per row).
        package var convert: Double
    }

    /// Our single-thread speed in output megapixels per second.
    package var megapixelsPerSecond: Double { megapixels * Double(repeats) / seconds }
    /// The baseline's speed, when there is one.
    package var baselineMegapixelsPerSecond: Double? { baselineSeconds.map { megapixels * Double(repeats) / $0 } }
    /// How many times each decoder ran.
    package var repeats: Int
}

/// Runs the benchmark: for each file, our decoder (one thread, then `threads`) and the
/// baseline the package links (libpng per rebuilt frame, giflib's DGifSlurp), taking turns,
/// each `repeats` times, all frames composited, plus an instrumented pass for the phase split.
///
/// The turns go round the files: the first turn of every file, then the second of every file,
/// and so on, so each file's turns are spread over the whole run and a slow patch of a noisy
/// machine (a core taken by something else for a second or two) falls on a few turns of each
/// file, not on all of one file's. Each decoder's time is the median over its turns of the
/// turn's time per decode; the ratios (ours over the baseline, one thread over `threads`) are
/// the medians of each turn's own ratio, whose decoders ran back to back: a patch that slows a
/// whole turn moves its ratio little, and one caught by a few turns does not move the median.
/// With a single turn (`repeats` up to 10) the median is that turn's figure.
package struct BenchRunner: Sendable {
    /// Worker threads for the parallel measurement.
    package var threads: Int
    /// Decodes per file and decoder.
    package var repeats: Int

    /// Decodes each decoder runs back to back before the next takes its turn.
    static let turn = 10

    /// Creates a runner.
    package init(threads: Int, repeats: Int) {
        self.threads = max(1, threads)
        self.repeats = max(1, repeats)
    }

    /// A file of ``prepare(paths:)`` that could not be decoded.
    package struct FileFailure: Error {
        /// The file.
        package var path: String
        /// Why.
        package var error: CodecError
    }

    /// Reads every file and warms its decoders up, ready for ``run(_:)``. Each file's peak
    /// memory is measured first, file by file, while no other file's decoders are held.
    /// - Throws: ``FileFailure`` for the first file that cannot be decoded.
    package func prepare(paths: [String]) throws -> [BenchSubject] {
        func named<Value>(_ path: String, _ body: () throws -> Value) throws -> Value {
            do { return try body() } catch let error as CodecError { throw FileFailure(path: path, error: error) }
        }
        let peaks = try paths.map { path in try named(path) { try BenchSubject.peakBytes(path: path) } }
        return try zip(paths, peaks).map { path, peak in
            try named(path) { try BenchSubject(path: path, threads: threads, peakBytes: peak) }
        }
    }

    /// Measures every subject, their turns taken in rounds over them.
    package func run(_ subjects: [BenchSubject]) throws -> [BenchResult] {
        var subjects = subjects
        var done = 0
        var round = 0
        while done < repeats {
            let count = min(Self.turn, repeats - done)
            for index in subjects.indices {
                try subjects[index].turn(count: count, threads: threads, parallelFirst: round % 2 == 1)
            }
            done += count
            round += 1
        }
        return try subjects.map(result)
    }

    /// What the turns of `subject` measured, with its correctness checks and phase split.
    private func result(_ subject: BenchSubject) throws -> BenchResult {
        let decoder = subject.decoder
        let info = decoder.info
        var agrees: Bool?
        if subject.hasBaseline {
            let theirs = subject.png?.finalCanvas() ?? subject.gif!.finalCanvas()
            let ours = try decoder.frame(at: info.frameCount - 1).pixels
            agrees = theirs.count == ours.count && zip(theirs, ours).allSatisfy { abs(Int($0) - Int($1)) <= 1 }
        }
        var parallelIdentical: Bool?
        if threads > 1 {
            parallelIdentical =
                try Self.frameChecksums(decoder, threads: 1) == Self.frameChecksums(decoder, threads: threads)
        }
        // A baseline that shows another last frame (a damaged file it gave up on early) did
        // other work: its time is no ratio.
        let comparable = agrees != false
        let phases = try decoder.profilePhases()
        if subject.sink == 1 { FileDescriptorOutput.standardError("") }  // keeps the outputs alive
        return BenchResult(
            name: URL(fileURLWithPath: subject.path).lastPathComponent, format: info.format.rawValue,
            width: info.width, height: info.height, frames: info.frameCount,
            megapixels: Double(info.frameCount * info.width * info.height) / 1e6,
            seconds: Self.allRepeats(subject.ours, repeats)!,
            parallelSeconds: Self.allRepeats(subject.parallel, repeats),
            baselineSeconds: comparable ? Self.allRepeats(subject.baseline, repeats) : nil,
            ratio: comparable ? median(zip(subject.baseline, subject.ours).map { $0 / $1 }) : nil,
            speedUp: median(zip(subject.ours, subject.parallel).map { $0 / $1 }),
            turns: .init(ours: subject.ours, parallel: subject.parallel, baseline: subject.baseline),
            phases: .init(decompress: phases.decompress, unfilter: phases.unfilter, convert: phases.convert),
            peakBytes: subject.peakBytes, baselineAgrees: agrees, parallelIdentical: parallelIdentical,
            repeats: repeats)
    }

    /// Decodes `path` with ours alone, on `threads` threads, `repeats` times into one canvas,
    /// untimed; the frames decoded in all. Two runs that differ only in `repeats` differ only by
    /// the decodes: what the instruction-count guard counts (on one thread), and what a profiler
    /// is pointed at.
    package static func decodeOnly(path: String, repeats: Int, threads: Int = 1) throws -> Int {
        let decoder = try AnimationDecoder(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        var canvas: [UInt8] = []
        var frames = 0
        for _ in 0..<repeats { try decoder.forEachFrame(threads: threads, reusing: &canvas) { _ in frames += 1 } }
        return frames
    }

    /// `repeats` decodes at the median of `perDecode` (seconds per decode of each turn); nil
    /// when the decoder did not run.
    private static func allRepeats(_ perDecode: [Double], _ repeats: Int) -> Double? {
        median(perDecode).map { $0 * Double(repeats) }
    }

    /// The CRC-32 of every displayed frame, decoded on `threads` threads.
    private static func frameChecksums(_ decoder: AnimationDecoder, threads: Int) throws -> [UInt32] {
        var sums: [UInt32] = []
        try decoder.forEachFrame(threads: threads) { frame in
            sums.append(frame.pixels.withUnsafeBytes { libdeflate_crc32(0, $0.baseAddress, $0.count) })
        }
        return sums
    }

    /// The speed of bare inflate over every zlib stream of `paths`' PNG files, for the
    /// "limit" rows: libdeflate's whole-buffer decompressor against zlib's, in output MB/s.
    package func inflateLimits(paths: [String]) throws -> (libdeflate: Double, zlib: Double)? {
        var streams: [(data: [UInt8], size: Int)] = []
        for path in paths {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
            guard let decoder = try? AnimationDecoder(bytes: bytes), decoder.info.format != .gif,
                let baseline = LibPNGBaseline(bytes: bytes, info: decoder.info)
            else { continue }
            for stream in baseline.streams {
                if let (data, size) = LibPNGBaseline.zlibStream(of: stream) { streams.append((data, size)) }
            }
        }
        guard !streams.isEmpty else { return nil }
        let total = Double(streams.reduce(0) { $0 + $1.size } * repeats)
        var output = [UInt8](repeating: 0, count: streams.map(\.size).max()!)
        let decompressor = libdeflate_alloc_decompressor()
        defer { libdeflate_free_decompressor(decompressor) }
        let deflateStart = Stopwatch.now()
        for _ in 0..<repeats {
            for stream in streams {
                var produced = 0
                _ = stream.data.withUnsafeBytes { input in
                    output.withUnsafeMutableBytes { out in
                        libdeflate_zlib_decompress(
                            decompressor, input.baseAddress, input.count, out.baseAddress, stream.size, &produced)
                    }
                }
            }
        }
        let deflateSeconds = Stopwatch.seconds(since: deflateStart)
        let zlibStart = Stopwatch.now()
        for _ in 0..<repeats {
            for stream in streams {
                var length = uLongf(stream.size)
                _ = stream.data.withUnsafeBytes { input in
                    output.withUnsafeMutableBytes { out in
                        uncompress(
                            out.baseAddress!.assumingMemoryBound(to: Bytef.self), &length,
                            input.baseAddress!.assumingMemoryBound(to: Bytef.self), uLong(input.count))
                    }
                }
            }
        }
        let zlibSeconds = Stopwatch.seconds(since: zlibStart)
        return (total / deflateSeconds / 1e6, total / zlibSeconds / 1e6)
    }
}
