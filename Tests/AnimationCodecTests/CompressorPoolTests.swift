import CDeflate
import Testing

@testable import AnimationCodec

/// The compressors kept between streams: reused while a file is written, and a level's idle
/// ones let go when asked (the near-optimal levels', megabytes each, once a file is written).
@Suite("CompressorPool: compressors kept, reused and let go", .timeLimit(.minutes(1)))
struct CompressorPoolTests {
    /// A stream the compressor makes, checked by inflating it with libdeflate.
    static func roundTrip(_ pool: CompressorPool, level: Int32) -> Bool {
        let data = (0..<4096).map { UInt8(truncatingIfNeeded: $0 * 7 / 5) }
        return pool.withCompressor(level: level) { compressor in
            var stream = [UInt8](repeating: 0, count: libdeflate_zlib_compress_bound(compressor, data.count))
            let count = libdeflate_zlib_compress(compressor, data, data.count, &stream, stream.count)
            guard count > 0, let decompressor = libdeflate_alloc_decompressor() else { return false }
            defer { libdeflate_free_decompressor(decompressor) }
            var out = [UInt8](repeating: 0, count: data.count)
            var written = 0
            let result = libdeflate_zlib_decompress(decompressor, stream, count, &out, out.count, &written)
            return result == LIBDEFLATE_SUCCESS && written == data.count && out == data
        }
    }

    @Test("a compressor is kept after use, one a level up to the capacity; releasing a level frees its idle ones only")
    func keepsAndReleases() {
        let pool = CompressorPool(capacity: 2)
        #expect(pool.idleCount(level: 12) == 0)
        #expect(Self.roundTrip(pool, level: 12))
        #expect(pool.idleCount(level: 12) == 1, "returned to the pool")
        #expect(Self.roundTrip(pool, level: 12))
        #expect(pool.idleCount(level: 12) == 1, "the same one taken again")
        // Three at once: the third returned is over the capacity and freed.
        pool.withCompressor(level: 12) { _ in
            pool.withCompressor(level: 12) { _ in
                pool.withCompressor(level: 12) { _ in #expect(pool.idleCount(level: 12) == 0) }
            }
        }
        #expect(pool.idleCount(level: 12) == 2)
        #expect(Self.roundTrip(pool, level: 6))
        pool.releaseIdle(level: 12)
        #expect(pool.idleCount(level: 12) == 0)
        #expect(pool.idleCount(level: 6) == 1, "other levels kept")
        #expect(Self.roundTrip(pool, level: 12), "made anew after a release")
    }
}
