/// Memory one thread fills for another to read: the parallel decode's frame buffers, which a
/// helper thread overwrites every few frames after the compositing thread last read them.
///
/// Writing such memory is cheap while both cores sit close (a cross-core round trip of about
/// 100 ns) and slow when they do not (several times that, on virtual machines whose cores move
/// apart): every cache line the decoder stores to is then held by the other core, and
/// a decompressor's short dependent stores (LZW strings, deflate matches) stall one line at a
/// time. Taking the lines over first, in one streaming pass that keeps many requests in
/// flight, costs about as much as one more write of the buffer and saves those stalls.
enum CacheHandoff {
    /// Writes every byte of `memory` (zeros), so this core owns its cache lines before a
    /// decoder's scattered stores. What `memory` held is lost.
    @inline(__always)
    static func takeOver(_ memory: UnsafeMutableRawBufferPointer) {
        memory.initializeMemory(as: UInt8.self, repeating: 0)
    }
}
