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
