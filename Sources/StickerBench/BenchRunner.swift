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
    /// for JPEG).
    package var baselineSeconds: Double?
    /// Where one decode's time goes (measured in a separate, instrumented pass).
    package var phases: Phases
    /// Peak resident memory while decoding this file, in bytes.
    package var peakBytes: Int?
    /// Whether the baseline's last frame agrees with ours within 1 per channel.
    package var baselineAgrees: Bool?
    /// Whether every frame of the `threads`-thread decode is bit-identical to the serial
    /// decode's (compared by CRC-32 per frame; nil when threads == 1).
    package var parallelIdentical: Bool?

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
    /// Ours over the baseline.
    package var ratio: Double? { baselineSeconds.map { $0 / seconds } }
    /// Parallel over single-thread.
    package var speedUp: Double? { parallelSeconds.map { seconds / $0 } }
    /// How many times each decoder ran.
    package var repeats: Int
}

/// Runs the benchmark: for each file, our decoder (one thread, then `threads`) and the
/// baseline the package links (libpng per rebuilt frame, giflib's DGifSlurp), taking turns,
/// each `repeats` times, all frames composited, plus an instrumented pass for the phase split.
///
/// Each decoder's time is the median over its turns of the turn's time per decode: on a
/// machine whose cores are now and then taken by something else, a turn caught by that is
/// an outlier for every decoder alike, and a sum over the turns would let it weigh on the
/// ratios (most of all on the speed-up, which needs both cores), where the median keeps the
/// typical turn. With a single turn (`repeats` up to 10) the median is that turn's mean.
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

    /// Measures one file.
    package func run(path: String) throws -> BenchResult {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let decoder = try AnimationDecoder(bytes: bytes)
        let info = decoder.info
        let megapixels = Double(info.frameCount * info.width * info.height) / 1e6

        let png = LibPNGBaseline(bytes: bytes, info: info)
        let gif = GiflibBaseline(bytes: bytes, info: info)
        var sink: UInt8 = 0
        // Seconds per decode of each turn, for each decoder.
        var ours: [Double] = []
        var parallel: [Double] = []
        var baseline: [Double] = []
        var peak: Int?
        // One untimed decode each first, as the C harness and the wuffs harness do: buffers,
        // tables and caches are warm for every decoder alike, so the figures are the steady
        // state (a single cold decode is what `bench --render` measures as a whole process).
        // Ours decodes into one canvas kept between runs, as the baselines and wuffs do.
        var canvas: [UInt8] = []
        try decoder.forEachFrame(threads: 1, reusing: &canvas) { sink &+= $0.pixels[0] }
        if threads > 1 { try decoder.forEachFrame(threads: threads, reusing: &canvas) { sink &+= $0.pixels[0] } }
        sink &+= png?.run() ?? gif?.run() ?? 0
        // The decoders take turns, so a slow patch of a noisy machine weighs on all of them
        // alike and the ratios hold; within a turn each decodes up to `turn` times back to
        // back, as the C and wuffs harnesses loop, so its own buffers and tables are the ones
        // in cache (one decode after another decoder's had run 10-20% slower on a still).
        var done = 0
        while done < repeats {
            let count = min(Self.turn, repeats - done)
            if done == 0 { PeakMemory.reset() }
            var start = Stopwatch.now()
            for _ in 0..<count { try decoder.forEachFrame(threads: 1, reusing: &canvas) { sink &+= $0.pixels[0] } }
            ours.append(Stopwatch.seconds(since: start) / Double(count))
            if done == 0 { peak = PeakMemory.bytes() }
            if threads > 1 {
                start = Stopwatch.now()
                for _ in 0..<count {
                    try decoder.forEachFrame(threads: threads, reusing: &canvas) { sink &+= $0.pixels[0] }
                }
                parallel.append(Stopwatch.seconds(since: start) / Double(count))
            }
            if png != nil || gif != nil {
                start = Stopwatch.now()
                for _ in 0..<count { sink &+= png?.run() ?? gif!.run() }
                baseline.append(Stopwatch.seconds(since: start) / Double(count))
            }
            done += count
        }
        let seconds = Self.allRepeats(ours, repeats)!
        let parallelSeconds = Self.allRepeats(parallel, repeats)
        let baselineSeconds = Self.allRepeats(baseline, repeats)

        var agrees: Bool?
        if png != nil || gif != nil {
            let theirs = png?.finalCanvas() ?? gif!.finalCanvas()
            let ours = try decoder.frame(at: info.frameCount - 1).pixels
            agrees = theirs.count == ours.count && zip(theirs, ours).allSatisfy { abs(Int($0) - Int($1)) <= 1 }
        }
        var parallelIdentical: Bool?
        if threads > 1 {
            parallelIdentical =
                try Self.frameChecksums(decoder, threads: 1) == Self.frameChecksums(decoder, threads: threads)
        }
        let phases = try decoder.profilePhases()
        if sink == 1 { FileDescriptorOutput.standardError("") }  // keeps `sink` alive
        return BenchResult(
            name: URL(fileURLWithPath: path).lastPathComponent, format: info.format.rawValue,
            width: info.width, height: info.height, frames: info.frameCount, megapixels: megapixels,
            seconds: seconds, parallelSeconds: parallelSeconds, baselineSeconds: baselineSeconds,
            phases: .init(decompress: phases.decompress, unfilter: phases.unfilter, convert: phases.convert),
            peakBytes: peak, baselineAgrees: agrees, parallelIdentical: parallelIdentical, repeats: repeats)
    }

    /// Decodes `path` with ours alone, on one thread, `repeats` times into one canvas, untimed;
    /// the frames decoded in all. Two runs that differ only in `repeats` differ only by the
    /// decodes: what the instruction-count guard counts.
    package static func decodeOnly(path: String, repeats: Int) throws -> Int {
        let decoder = try AnimationDecoder(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        var canvas: [UInt8] = []
        var frames = 0
        for _ in 0..<repeats { try decoder.forEachFrame(threads: 1, reusing: &canvas) { _ in frames += 1 } }
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
