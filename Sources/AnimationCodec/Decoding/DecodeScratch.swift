import CDeflate
import Synchronization

/// Buffers and the libdeflate decompressor one decoding thread reuses from frame to frame,
/// so a frame costs no allocation (and no fresh, page-faulting memory) once the largest
/// frame has been seen. Not shared between threads: each worker owns one.
final class DecodeScratch: @unchecked Sendable {
    // @unchecked: a scratch is used by one thread at a time; parallel decoding gives each
    // worker its own.
    private var filtered = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    private var row = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    private var zeros = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    private var indexes = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    private var joined = UnsafeMutableRawBufferPointer(start: nil, count: 0)
    /// libdeflate's decompressor (about 32 KB of tables), allocated once.
    let decompressor: OpaquePointer?
    /// A parallel decode's layer memory, parked here between decodes (see ``takeLayerStorage()``).
    private var parkedLayer: [UInt8] = []

    init() {
        decompressor = libdeflate_alloc_decompressor()
    }

    deinit {
        for buffer in [filtered, row, zeros, indexes, joined] { buffer.deallocate() }
        if let decompressor { libdeflate_free_decompressor(decompressor) }
    }

    /// The layer memory parked by the last parallel decode that used this scratch (empty at
    /// first): a slot's frame layers, or a canvas handed back, reused instead of faulting in
    /// fresh pages every decode.
    func takeLayerStorage() -> [UInt8] {
        defer { parkedLayer = [] }
        return parkedLayer
    }

    /// Parks `storage` for the next parallel decode that takes this scratch.
    func parkLayerStorage(_ storage: [UInt8]) { parkedLayer = storage }

    /// At least `count` bytes for an inflated (filtered) image; contents undefined.
    func filteredBuffer(_ count: Int) -> UnsafeMutableRawBufferPointer {
        Self.ensure(&filtered, count, zeroed: false)
        return UnsafeMutableRawBufferPointer(rebasing: filtered[0..<count])
    }

    /// At least `pixels` packed pixels for one converted row; contents undefined.
    func rowBuffer(_ pixels: Int) -> UnsafeMutablePointer<UInt32> {
        Self.ensure(&row, pixels * 4, zeroed: false)
        return row.baseAddress!.assumingMemoryBound(to: UInt32.self)
    }

    /// At least `count` zero bytes: the "previous row" of a pass's first row.
    func zeroRow(_ count: Int) -> UnsafePointer<UInt8> {
        Self.ensure(&zeros, count, zeroed: true)
        return UnsafePointer(zeros.baseAddress!.assumingMemoryBound(to: UInt8.self))
    }

    /// At least `count` bytes for a GIF frame's palette indexes; contents undefined.
    func indexBuffer(_ count: Int) -> UnsafeMutableBufferPointer<UInt8> {
        Self.ensure(&indexes, count, zeroed: false)
        return UnsafeMutableBufferPointer(start: indexes.baseAddress!.assumingMemoryBound(to: UInt8.self), count: count)
    }

    /// The bytes of `ranges` of `bytes`, end to end: a frame's compressed data split over
    /// chunks (IDAT/fdAT) or sub-blocks (GIF), joined in a buffer kept from frame to frame
    /// instead of a fresh array each frame. Valid until the next call.
    func gathered(_ ranges: [Range<Int>], of bytes: [UInt8]) -> UnsafeRawBufferPointer {
        let total = ranges.reduce(0) { $0 + $1.count }
        Self.ensure(&joined, total, zeroed: false)
        let out = joined.baseAddress!
        bytes.withUnsafeBytes { source in
            var offset = 0
            for range in ranges {
                precondition(range.lowerBound >= 0 && range.upperBound <= source.count, "a data range outside the file")
                (out + offset).copyMemory(from: source.baseAddress! + range.lowerBound, byteCount: range.count)
                offset += range.count
            }
        }
        return UnsafeRawBufferPointer(start: out, count: total)
    }

    private static func ensure(_ buffer: inout UnsafeMutableRawBufferPointer, _ count: Int, zeroed: Bool) {
        guard buffer.count < max(count, 1) else { return }
        buffer.deallocate()
        // Grow by half again, so a sequence of growing frames reallocates rarely.
        let capacity = max(count, buffer.count + buffer.count / 2, 64)
        buffer = .allocate(byteCount: capacity, alignment: 16)
        if zeroed { buffer.initializeMemory(as: UInt8.self, repeating: 0) }
    }
}

/// Scratch kept between decodes, so short animations and many small stickers decoded one
/// after another do not pay for fresh (page-faulting) buffers and decompressor tables each
/// time. Holds at most ``capacity`` idle scratches; taking and returning is one locked step.
final class ScratchPool: Sendable {
    static let shared = ScratchPool(capacity: 2 * AnimationDecoder.defaultThreadCount + 1)

    private let idle = Mutex<[DecodeScratch]>([])
    let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// An idle scratch, or a new one (made outside the lock).
    func take() -> DecodeScratch {
        idle.withLock { $0.popLast() } ?? DecodeScratch()
    }

    /// Returns a scratch for reuse (dropped when the pool is full).
    func give(_ scratch: DecodeScratch) {
        idle.withLock { idle in
            if idle.count < capacity { idle.append(scratch) }
        }
    }
}
