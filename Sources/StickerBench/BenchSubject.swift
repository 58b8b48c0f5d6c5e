import AnimationCodec
import FoundationEssentials

/// One file of a decoding benchmark, ready to be timed: its decoder, the baseline the package
/// links for its format, the canvas our decoder reuses, and every turn's seconds per decode so
/// far (see ``BenchRunner``).
package struct BenchSubject {
    /// The file's path.
    package let path: String
    let decoder: AnimationDecoder
    let png: LibPNGBaseline?
    let gif: GiflibBaseline?
    /// Peak resident memory over one cold decode on one thread (nil without /proc).
    let peakBytes: Int?
    /// Our canvas, kept between decodes as the baselines and wuffs keep theirs.
    var canvas: [UInt8] = []
    /// Seconds per decode of each turn: ours on one thread, ours on the runner's threads,
    /// and the baseline, the three of one turn measured back to back.
    var ours: [Double] = []
    var parallel: [Double] = []
    var baseline: [Double] = []
    /// Keeps the decodes' outputs alive, so no decode is optimised away.
    var sink: UInt8 = 0

    /// Reads and sniffs `path`, then decodes it once untimed with each decoder, as the C and
    /// wuffs harnesses do: buffers, tables and caches are warm for every decoder alike, so the
    /// figures are the steady state (a single cold decode is what `bench --render` measures as
    /// a whole process). `peakBytes` is the file's ``peakBytes(path:)``, measured before any
    /// subject was made.
    /// - Throws: ``CodecError`` when the file cannot be decoded.
    init(path: String, threads: Int, peakBytes: Int?) throws {
        self.path = path
        self.peakBytes = peakBytes
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        decoder = try AnimationDecoder(bytes: bytes)
        png = LibPNGBaseline(bytes: bytes, info: decoder.info)
        gif = GiflibBaseline(bytes: bytes, info: decoder.info)
        try decode(threads: 1)
        if threads > 1 { try decode(threads: threads) }
        sink &+= runBaseline()
    }

    /// The process's peak resident memory over one decode of `path` on one thread, with
    /// nothing of it kept afterwards (nil without /proc).
    /// - Throws: ``CodecError`` when the file cannot be decoded.
    static func peakBytes(path: String) throws -> Int? {
        let decoder = try AnimationDecoder(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        PeakMemory.reset()
        // The decode's memory is the measure; its frames are not read.
        try decoder.forEachFrame(threads: 1) { _ in }
        return PeakMemory.bytes()
    }

    /// Whether a libpng or giflib baseline decodes this file.
    var hasBaseline: Bool { png != nil || gif != nil }

    /// One turn: `count` decodes back to back by each decoder, so each finds its own buffers
    /// and tables in cache, as the C and wuffs harnesses loop (one decode after another
    /// decoder's had run 10-20% slower on a still). `parallelFirst` swaps the order of our
    /// one-thread and parallel decodes, so neither always follows the baseline.
    mutating func turn(count: Int, threads: Int, parallelFirst: Bool) throws {
        func timed(_ decode: (inout BenchSubject) throws -> Void) rethrows -> Double {
            let start = Stopwatch.now()
            for _ in 0..<count { try decode(&self) }
            return Stopwatch.seconds(since: start) / Double(count)
        }
        func ourDecodes(threads: Int) throws -> Double { try timed { try $0.decode(threads: threads) } }
        if threads > 1 && parallelFirst { parallel.append(try ourDecodes(threads: threads)) }
        ours.append(try ourDecodes(threads: 1))
        if threads > 1 && !parallelFirst { parallel.append(try ourDecodes(threads: threads)) }
        if hasBaseline { baseline.append(timed { $0.sink &+= $0.runBaseline() }) }
    }

    /// One decode by ours on `threads` threads, into the kept canvas.
    private mutating func decode(threads: Int) throws {
        var sink = self.sink
        try decoder.forEachFrame(threads: threads, reusing: &canvas) { sink &+= $0.pixels[0] }
        self.sink = sink
    }

    /// One decode by the baseline (0 without one).
    private func runBaseline() -> UInt8 { png?.run() ?? gif?.run() ?? 0 }
}
