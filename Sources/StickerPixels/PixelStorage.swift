import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#endif

/// Memory for large pixel buffers. A 3x browser canvas is 12 MB: touched page by page it costs
/// about 3,000 page faults, most of a short process's system time. Asking for transparent huge
/// pages (where the kernel grants them on request, as Debian's default does) turns those into
/// a handful of 2 MiB faults.
enum PixelStorage {
    /// 2 MiB, the x86-64 huge page.
    static let hugePage = 2 << 20

    /// `count` bytes, each written by `fill` before the array is returned.
    static func bytes(count: Int, _ fill: (UnsafeMutableRawBufferPointer) -> Void) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            adviseHugePages(raw)
            fill(raw)
            initialized = count
        }
    }

    /// `count` zero bytes.
    static func zeros(count: Int) -> [UInt8] {
        bytes(count: count) { $0.initializeMemory(as: UInt8.self, repeating: 0) }
    }

    /// Asks for huge pages over the 2 MiB-aligned part of `buffer`, before it is first touched;
    /// smaller buffers are left alone. Only advice: nothing changes if the kernel says no.
    static func adviseHugePages(_ buffer: UnsafeMutableRawBufferPointer) {
        guard buffer.count >= 2 * hugePage, let base = buffer.baseAddress else { return }
        let start = (Int(bitPattern: base) + hugePage - 1) & ~(hugePage - 1)
        let end = (Int(bitPattern: base) + buffer.count) & ~(hugePage - 1)
        guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(aligned, end - start, 14)  // MADV_HUGEPAGE (Linux)
    }
}
