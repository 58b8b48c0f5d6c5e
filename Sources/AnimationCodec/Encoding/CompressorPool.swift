import CDeflate
import Synchronization

/// libdeflate compressors kept between streams, per level: an animation compresses every frame
/// as its own stream, and a fresh compressor's tables (megabytes at the strongest levels) cost
/// page faults on every one. Holds at most ``capacity`` idle compressors a level; taking and
/// returning is one locked step.
final class CompressorPool: Sendable {
    /// The pool the encoders share.
    static let shared = CompressorPool(capacity: 2 * AnimationDecoder.defaultThreadCount + 1)

    /// A compressor, owned by whoever took it from the pool.
    struct Compressor: @unchecked Sendable {
        let pointer: OpaquePointer
        let level: Int32
    }

    private let idle = Mutex<[Int32: [Compressor]]>([:])
    let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// Runs `body` with a compressor at `level` (1-12), taken from the pool or made, and
    /// returns it to the pool afterwards.
    func withCompressor<Result>(level: Int32, _ body: (OpaquePointer) -> Result) -> Result {
        let compressor = idle.withLock { $0[level]?.popLast() } ?? make(level: level)
        defer { give(compressor) }
        return body(compressor.pointer)
    }

    private func make(level: Int32) -> Compressor {
        guard let pointer = libdeflate_alloc_compressor(level) else {
            fatalError("libdeflate could not allocate a compressor")
        }
        return Compressor(pointer: pointer, level: level)
    }

    /// The levels at which libdeflate parses near-optimally: each compressor's match cache and
    /// nodes take about 9 MB, against well under 1 MB at the other levels.
    static let nearOptimalLevels: ClosedRange<Int32> = 10...12

    /// Frees the idle compressors of `level`. A file written at a near-optimal level is, in a
    /// search, the end of a candidate, and the search goes on at its own levels for a while:
    /// kept, those compressors would hold their megabytes through it.
    func releaseIdle(level: Int32) {
        let freed = idle.withLock { $0.removeValue(forKey: level) ?? [] }
        for compressor in freed { libdeflate_free_compressor(compressor.pointer) }
    }

    /// How many idle compressors of `level` the pool holds.
    func idleCount(level: Int32) -> Int {
        idle.withLock { $0[level]?.count ?? 0 }
    }

    /// Keeps `compressor` for reuse, or frees it when the pool holds enough of its level.
    private func give(_ compressor: Compressor) {
        let kept = idle.withLock { idle in
            guard idle[compressor.level, default: []].count < capacity else { return false }
            idle[compressor.level, default: []].append(compressor)
            return true
        }
        if !kept { libdeflate_free_compressor(compressor.pointer) }
    }
}
