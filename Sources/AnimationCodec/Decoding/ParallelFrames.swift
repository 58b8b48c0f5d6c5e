import Dispatch

/// The parallel decode: a sliding window of frames whose layers are decoded on Dispatch's
/// global queue, at most `threads` at once, while this thread composites finished layers in
/// order. Every frame's compressed data is independent, and composition is serial, so the
/// frames are bit-identical to a serial decode.
struct ParallelFrames {
    /// One window position: its own scratch and layer memory, reused every `window` frames.
    private final class Slot: @unchecked Sendable {
        // @unchecked: a slot is written by one decoding task, then read by the compositing
        // thread after `ready` is signalled, and resubmitted only after that read.
        let scratch = ScratchPool.shared.take()
        var storage: [UInt8] = []
        var result: Result<FrameSource.Prepared, CodecError>?
        let ready = DispatchSemaphore(value: 0)

        deinit { ScratchPool.shared.give(scratch) }
    }

    let decoder: AnimationDecoder
    let threads: Int

    func run(_ body: (Frame) throws(CodecError) -> Void) throws(CodecError) {
        let frameCount = decoder.frameCount
        let window = min(threads * 2, frameCount)
        let slots = (0..<window).map { _ in Slot() }
        let workers = DispatchSemaphore(value: threads)
        let (source, bytes) = (decoder.source, decoder.bytes)
        var submitted = 0

        func submit(_ index: Int) {
            let slot = slots[index % window]
            submitted += 1
            DispatchQueue.global().async {
                workers.wait()
                slot.result = Result { () throws(CodecError) in
                    try source.prepare(index, bytes: bytes, scratch: slot.scratch, storage: &slot.storage)
                }
                workers.signal()
                slot.ready.signal()
            }
        }
        var consumed = 0
        // On any exit, wait for tasks still running so none outlives the call.
        defer { for index in consumed..<submitted { slots[index % window].ready.wait() } }

        for index in 0..<window { submit(index) }
        var compositor = Compositor(width: decoder.info.width, height: decoder.info.height,
                                    firstFrameWritesEveryPixel: decoder.firstFrameWritesEveryPixel)
        let rowBuffer = ScratchPool.shared.take()
        defer { ScratchPool.shared.give(rowBuffer) }
        for index in 0..<frameCount {
            let slot = slots[index % window]
            slot.ready.wait()
            consumed += 1
            let frameInfo = decoder.info.frames[index]
            // The prepared frame is consumed inside this call, so no reference to the slot's
            // storage survives it and the next task can reuse that memory without a copy.
            let warnings = try Self.composite(slot, source: source, index: index, info: frameInfo, onto: &compositor,
                                              rowBuffer: rowBuffer.rowBuffer(frameInfo.rect.width))
            let frame = Frame(info: frameInfo, width: decoder.info.width, height: decoder.info.height,
                              pixels: compositor.canvas, warnings: warnings)
            if index + window < frameCount { submit(index + window) }
            try body(frame)
        }
    }

    private static func composite(_ slot: Slot, source: FrameSource, index: Int, info: FrameInfo,
                                  onto compositor: inout Compositor, rowBuffer: UnsafeMutablePointer<UInt32>) throws(CodecError) -> [CodecWarning] {
        guard let result = slot.result else { return [] }
        slot.result = nil
        return source.composite(try result.get(), index: index, storage: slot.storage, scratch: slot.scratch, info: info,
                                onto: &compositor, rowBuffer: rowBuffer)
    }
}
