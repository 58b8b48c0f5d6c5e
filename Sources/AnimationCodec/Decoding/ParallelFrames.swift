import Dispatch
import Synchronization

/// The parallel decode: `threads - 1` helpers and this thread take frames in order from a
/// sliding window and decode their layers (every frame's compressed data is independent);
/// this thread also composites the decoded layers in order, and whenever the next one is not
/// ready yet it decodes a waiting frame itself instead of idling. `threads` threads in all,
/// never more runnable than that. Composition is serial, so the frames are bit-identical to a
/// serial decode.
///
/// Memory moves between cores as little as it can: a helper takes over the buffer its
/// decompressor writes before writing it (``CacheHandoff``), and a whole canvas drawn by a
/// worker goes back, once replaced, to the thread that drew it (``CanvasPools``).
struct ParallelFrames {
    /// One window position: its own scratch and layer memory, reused every `window` frames.
    private final class Slot: @unchecked Sendable {
        // @unchecked: a slot is written by the thread that claimed its frame, then read by the
        // compositing thread after `ready` is signalled, and claimed again only after that
        // read (``Schedule/claim()`` keeps a frame's slot out of reach until it is consumed).
        let scratch = ScratchPool.shared.take()
        /// Layer memory, kept with the pooled scratch between decodes.
        var storage: [UInt8]
        var result: Result<FrameSource.Prepared, CodecError>?
        /// Which thread decoded the frame in the slot (0: this one, the compositing thread).
        var writer = 0
        /// The frame whose result is in the slot (-1: none yet).
        let decoded = Atomic<Int>(-1)
        let ready = DispatchSemaphore(value: 0)

        init() { storage = scratch.takeLayerStorage() }

        deinit {
            scratch.parkLayerStorage(storage)
            ScratchPool.shared.give(scratch)
        }
    }

    /// Which frames are claimed and which slots are free, shared by every thread.
    private final class Schedule: Sendable {
        let frameCount: Int
        let window: Int
        /// The first frame nobody has claimed.
        let next = Atomic<Int>(0)
        /// Frames composited: frame `i`'s slot is free once `consumed > i`.
        let consumed = Atomic<Int>(0)
        let stopped = Atomic<Bool>(false)
        /// Signalled whenever a slot frees (or the run ends), for helpers waiting for room.
        let room = DispatchSemaphore(value: 0)

        init(frameCount: Int, window: Int) {
            self.frameCount = frameCount
            self.window = window
        }

        /// The next frame to decode, if there is one and its slot is free.
        func claim() -> Int? {
            while !stopped.load(ordering: .relaxed) {
                let index = next.load(ordering: .acquiring)
                guard index < frameCount, index < consumed.load(ordering: .acquiring) + window else { return nil }
                if next.compareExchange(expected: index, desired: index + 1, ordering: .acquiringAndReleasing).exchanged
                {
                    return index
                }
            }
            return nil
        }

        /// Whether every frame has been claimed (or the run stopped).
        var finished: Bool { stopped.load(ordering: .relaxed) || next.load(ordering: .acquiring) >= frameCount }
    }

    /// Memory for GIF frames drawn whole as the next canvas, kept with the thread that last
    /// wrote it: a canvas that is replaced goes back to its writer, whose next whole frame then
    /// writes memory that is still in its own core's cache instead of lines the other core
    /// owns.
    private final class CanvasPools: Sendable {
        private let memory: Mutex<[[[UInt8]]]>

        init(threads: Int) { memory = Mutex(Array(repeating: [], count: threads)) }

        /// Memory last written by thread `worker`, else by another thread, else an empty array:
        /// new memory only when every canvas-sized block is in use, so there are never more
        /// than the window's frames in flight, plus the canvas, plus the parked ones.
        func take(_ worker: Int) -> [UInt8] {
            memory.withLock { pools in
                if let own = pools[worker].popLast() { return own }
                for other in pools.indices where !pools[other].isEmpty { return pools[other].removeLast() }
                return []
            }
        }

        /// Keeps `canvas` for thread `worker`.
        func give(_ canvas: [UInt8], to worker: Int) {
            memory.withLock { $0[worker].append(canvas) }
        }

        /// Everything kept, emptying the pools.
        func drain() -> [[UInt8]] {
            memory.withLock { pools in
                defer { pools = pools.map { _ in [] } }
                return pools.flatMap { $0 }
            }
        }
    }

    let decoder: AnimationDecoder
    let threads: Int

    /// Decodes every frame, compositing into `canvas`'s memory when it has the canvas's size;
    /// `canvas` holds the canvas again however the run ends.
    func run(canvas: inout [UInt8], _ body: (Frame) throws(CodecError) -> Void) throws(CodecError) {
        let frameCount = decoder.frameCount
        let window = min(threads * 2, frameCount)
        let slots = (0..<window).map { _ in Slot() }
        let schedule = Schedule(frameCount: frameCount, window: window)
        let (source, bytes) = (decoder.source, decoder.bytes)
        let asCanvas = Self.framesDrawnWhole(decoder, threads: threads)
        // Threads in all: this one (0) and the helpers (1...).
        let workers = max(2, threads)
        let pools = CanvasPools(threads: workers)
        if asCanvas.contains(true) {
            // Canvas-sized memory parked in the slots by the last decode seeds the pools.
            let canvasBytes = decoder.info.width * decoder.info.height * 4
            for (number, slot) in slots.enumerated() where slot.storage.count == canvasBytes {
                pools.give(slot.storage, to: number % workers)
                slot.storage = []
            }
        }
        // Afterwards the pools' memory goes back to the slots, to be parked for the next decode.
        defer {
            var kept = pools.drain()
            for slot in slots where slot.storage.isEmpty {
                guard let memory = kept.popLast() else { break }
                slot.storage = memory
            }
        }

        @Sendable func decode(_ index: Int, worker: Int) {
            let slot = slots[index % window]
            slot.writer = worker
            slot.result = Result { () throws(CodecError) in
                guard asCanvas[index] else {
                    return try source.prepare(
                        index, bytes: bytes, scratch: slot.scratch, storage: &slot.storage, takingOver: worker != 0)
                }
                var memory = pools.take(worker)
                return try source.prepare(
                    index, bytes: bytes, scratch: slot.scratch, storage: &memory, asCanvas: true,
                    takingOver: worker != 0)
            }
            slot.decoded.store(index, ordering: .releasing)
            slot.ready.signal()
        }

        let helpers = DispatchGroup()
        for worker in 1..<workers {
            DispatchQueue.global().async(group: helpers) {
                while !schedule.finished {
                    if let index = schedule.claim() { decode(index, worker: worker) } else { schedule.room.wait() }
                }
            }
        }
        // On any exit, stop the helpers and wait for them, so none outlives the call.
        defer {
            schedule.stopped.store(true, ordering: .relaxed)
            for _ in 0..<threads { schedule.room.signal() }
            helpers.wait()
        }

        var compositor = Compositor(width: decoder.info.width, height: decoder.info.height, reusing: canvas)
        canvas = []  // the compositor holds the only reference, so drawing never copies
        defer { canvas = compositor.takeCanvas() }
        let rowBuffer = ScratchPool.shared.take()
        defer { ScratchPool.shared.give(rowBuffer) }
        // The thread that wrote the canvas's memory (the caller's memory: this one).
        var canvasWriter = 0
        for index in 0..<frameCount {
            let slot = slots[index % window]
            // Help while frame `index` is not decoded: take waiting frames (in order, so
            // `index` itself first when nobody has it yet).
            while slot.decoded.load(ordering: .acquiring) != index, let claimed = schedule.claim() {
                decode(claimed, worker: 0)
            }
            slot.ready.wait()  // one wait per frame, for the one signal its decode gives
            let frameInfo = decoder.info.frames[index]
            // The prepared frame is consumed inside this call, so no reference to the slot's
            // storage survives it and the frame `window` later can reuse that memory.
            let warnings = try Self.composite(
                slot, source: source, index: index, info: frameInfo, onto: &compositor,
                rowBuffer: rowBuffer.rowBuffer(frameInfo.rect.width),
                pools: pools, canvasWriter: &canvasWriter)
            schedule.consumed.store(index + 1, ordering: .releasing)
            schedule.room.signal()
            let frame = Frame(
                info: frameInfo, width: decoder.info.width, height: decoder.info.height,
                pixels: compositor.canvas, warnings: warnings)
            try body(frame)
        }
    }

    private static func composite(
        _ slot: Slot, source: FrameSource, index: Int, info: FrameInfo,
        onto compositor: inout Compositor, rowBuffer: UnsafeMutablePointer<UInt32>,
        pools: CanvasPools, canvasWriter: inout Int
    ) throws(CodecError) -> [CodecWarning] {
        guard let result = slot.result else { return [] }
        slot.result = nil
        let prepared = try result.get()
        if case .canvas(let layer) = prepared, let previous = compositor.replaceCanvas(with: layer.pixels, info: info) {
            // The old canvas's memory goes back to the thread that wrote it.
            pools.give(previous, to: canvasWriter)
            canvasWriter = slot.writer
            return layer.warnings
        }
        return source.composite(
            prepared, index: index, storage: slot.storage, scratch: slot.scratch, info: info,
            onto: &compositor, rowBuffer: rowBuffer)
    }

    /// Canvases up to this many bytes may be drawn whole by the workers: each of the window's
    /// slots then holds a canvas, not a frame's palette indexes (4 bytes a pixel, not 1), so the
    /// streaming bound only grows by a few sticker-sized canvases.
    static let wholeCanvasBytes = 2 << 20

    /// Threads from which GIF frames that replace the canvas are drawn whole by the workers.
    ///
    /// Drawing a GIF frame's indexes is 30-50% of its decode (the bench's phase split), and the
    /// compositing thread does all of it unless workers draw whole canvases. On two threads
    /// that share fits the compositing thread's half, and drawing there, into the one canvas
    /// that stays in its core's cache, measured faster than handing whole canvases between
    /// cores: two threads against one, medians of three interleaved runs of `stickers bench
    /// --threads 2 --repeat 200`, 1.78x against 1.17x on gif_408_bounce_local, 1.61x against
    /// 0.88x on gif_408_heart_interlaced, 1.83x against 1.76x on gif_300_wave_mixed, the 618 px
    /// files alike (1.84x/1.84x, 1.90x/1.89x). From three threads on the draws would outgrow
    /// the compositing thread's share, and the workers draw.
    static let wholeCanvasThreads = 3

    /// For each frame, whether a worker draws it whole (a GIF frame that replaces the canvas,
    /// on a canvas small enough, with ``wholeCanvasThreads`` threads or more): the compositing
    /// thread then only takes its memory.
    static func framesDrawnWhole(_ decoder: AnimationDecoder, threads: Int) -> [Bool] {
        let info = decoder.info
        guard case .gif = decoder.source, threads >= wholeCanvasThreads,
            info.width * info.height * 4 <= wholeCanvasBytes
        else {
            return [Bool](repeating: false, count: info.frameCount)
        }
        return info.frames.indices.map {
            Compositor.replacesCanvas(info.frames, at: $0, width: info.width, height: info.height)
        }
    }
}
