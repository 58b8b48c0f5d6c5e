import CMalloc

#if canImport(Glibc)
    import Glibc
#endif

/// Heap set-up for a process about to fill tens of megabytes of fresh pixel memory: a 3x
/// browser snapshot's decoded frames, scaled stickers and band buffers.
///
/// Every fresh 4 KiB page costs a page fault, and a render touches thousands of them. So glibc
/// is asked to serve large buffers from its heap rather than one `mmap` each
/// (`M_MMAP_THRESHOLD`, at glibc's 32 MiB limit), to keep what is freed for the next buffer
/// (`M_TRIM_THRESHOLD`), to use that one heap from every thread (`M_ARENA_MAX`), and to grow it
/// 128 MiB at a time (`M_TOP_PAD`: address space, not memory; an animated 3x render peaks near
/// 70 MB, and past the prepared range the heap would grow in 4 KiB pages again). The heap is
/// grown once here, before any of it is touched, and transparent huge pages are asked for over
/// it, so its pages arrive 2 MiB at a time, for a few megabytes more peak memory. What it saves
/// is measured in docs/performance.md (start-up and drawing commands). All of it is advice:
/// with huge pages off (or not granted) only the thresholds change, and the pixels are the
/// same either way.
enum LargeImageHeap {
    /// How much the heap grows at a time, and is prepared now.
    static let pad = 128 << 20
    /// Blocks this large or larger get their own mapping: glibc's largest threshold.
    static let mmapThreshold = 32 << 20
    /// The x86-64 and arm64 huge page.
    static let hugePage = 2 << 20

    /// Whether ``prepare()`` has run (only ever touched on the main thread, before other threads).
    nonisolated(unsafe) private static var prepared = false

    /// Call on the main thread before the work starts its threads: ``ProcessStart`` does, before
    /// the command line is parsed, and the drawing commands again when they run (in a process
    /// started otherwise); calls after the first do nothing.
    static func prepare() {
        guard !prepared else { return }
        prepared = true
        mallopt(M_ARENA_MAX, 1)
        mallopt(M_MMAP_THRESHOLD, Int32(mmapThreshold))
        mallopt(M_TRIM_THRESHOLD, 256 << 20)
        mallopt(M_TOP_PAD, Int32(pad))
        // Huge pages come only whole, aligned, and into 2 MiB ranges that no 4 KiB page has
        // touched yet. So the blocks that grow the heap are placed to write their headers
        // below the first 2 MiB boundary of the free top (malloc writes nothing else in them):
        // a filler, never freed, up to the boundary, then a block of about the pad, which
        // makes the heap grow by itself plus the pad and, freed, becomes the untouched top.
        // Before this, the boundary's first 2 MiB went to 4 KiB pages: ~320 faults a render.
        let before = Int(bitPattern: sbrk(0))
        guard before > 0 else { return }
        let topStart = before - Int(mallinfo2().keepcost)
        let boundary = (topStart + hugePage - 1) & ~(hugePage - 1)
        // A chunk is its request plus an 8-byte size field, in 16-byte steps: this request
        // ends the filler's chunk 16 bytes short of the boundary, where the next header goes.
        let fillerRequest = boundary - topStart - 24
        if fillerRequest >= 4096, let filler = malloc(fillerRequest) {
            // Kept for the process's life; asked about so the compiler cannot drop it.
            _ = malloc_usable_size(filler)
        }
        // Below the mmap threshold, so the heap grows by it plus the pad.
        guard let block = malloc(mmapThreshold - (64 << 10)) else { return }
        guard malloc_usable_size(block) > 0 else { return free(block) }
        free(block)
        let after = Int(bitPattern: sbrk(0))
        // Only a heap that really grew by sbrk (glibc falls back to mmap when it cannot).
        guard after - before >= pad else { return }
        let start = boundary
        let end = after & ~(hugePage - 1)
        guard end > start, let region = UnsafeMutableRawPointer(bitPattern: start) else { return }
        _ = madvise(region, end - start, MADV_HUGEPAGE)
    }
}
