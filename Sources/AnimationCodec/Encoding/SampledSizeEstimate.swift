/// The quick estimate of ``AnimationEncoder/estimatedBytes(first:pairs:frameCount:width:height:level:threads:)``
/// made from a sample handed over a piece at a time, so that its frames need not all be held:
/// a search that makes each candidate's sample frames anew can make them twice (once for their
/// colours, once for their sizes) rather than hold them, where on a short clip the sample is
/// nearly the whole clip.
///
/// First every frame of the sample is counted for the colour model, in order (the first frame,
/// then each pair's two frames), as long as ``needsColors``; then the first frame and the pairs
/// are measured, any number of pairs at a time. The estimate is the same whichever way the sample
/// is handed over.
public struct SampledSizeEstimate {
    /// The canvas's width in pixels.
    public let width: Int
    /// The canvas's height in pixels.
    public let height: Int
    private let options: AnimationEncoder.Options
    private var census = ColorCensus()
    private var previous: [UInt8]?
    private var framesCounted = 0
    /// The model chosen when the first frame is measured.
    private var model: PNGColorModel?
    private var firstBytes = 0
    private var pairBytes = 0
    private var pairsMeasured = 0

    /// An estimate of a `width` x `height` animation, its rows compressed at `level`, its pairs
    /// measured on up to `threads` threads.
    public init(width: Int, height: Int, level: Int32 = 1, threads: Int = AnimationDecoder.defaultThreadCount) {
        self.width = width
        self.height = height
        options = AnimationEncoder.Options(compressionLevel: level, searchLevel: level, threads: threads)
    }

    /// Whether another frame's colours could change the colour model (once neither a palette,
    /// RGB nor a colour key is possible, no frame can).
    public var needsColors: Bool { census.anyModelLeft }

    /// Counts the colours of the sample's next frame (premultiplied RGBA8, `width` x `height`):
    /// the first frame, then each pair's frames, in order.
    public mutating func countColors(_ frame: [UInt8]) {
        precondition(model == nil, "colours are counted before anything is measured")
        precondition(frame.count == width * height * 4, "frame size does not match the canvas")
        framesCounted += 1
        guard census.anyModelLeft else { return }
        census.count(frame, after: previous)
        previous = frame
    }

    /// Measures the sample's first frame, whole, with the smallest exact colour model for the
    /// frames counted; after this no more colours are counted.
    public mutating func measureFirst(_ frame: [UInt8]) {
        precondition(model == nil, "the first frame is measured once")
        precondition(frame.count == width * height * 4, "frame size does not match the canvas")
        let smallest = census.model(frameCount: framesCounted)
        let model = smallest.unpacked ?? smallest
        self.model = model
        previous = nil
        firstBytes = planner([frame], model).deltaBytes(index: 0)
    }

    /// Measures `pairs` of consecutive frames (each pair's second frame cropped to what changed
    /// since its first, drawn OVER it where that is exact), on up to the estimate's threads.
    public mutating func measure(_ pairs: [(before: [UInt8], after: [UInt8])]) {
        guard let model else { preconditionFailure("the first frame is measured before the pairs") }
        precondition(
            pairs.allSatisfy { $0.before.count == width * height * 4 && $0.after.count == width * height * 4 },
            "frame size does not match the canvas")
        let planner = planner([], model)
        let sizes = ParallelWork.map(pairs, threads: options.threads) {
            FramePlanner(
                frames: [$0.before, $0.after], width: planner.width, height: planner.height, model: planner.model,
                options: planner.options
            ).deltaBytes(index: 1)
        }
        pairBytes += sizes.reduce(0, +)
        pairsMeasured += pairs.count
    }

    /// The estimated bytes of a file of `frameCount` frames, the pairs measured standing for its
    /// `frameCount - 1` changes: the first frame's rows, the pairs' scaled, and the chunks around them.
    public func bytes(frameCount: Int) -> Int {
        guard let model else { preconditionFailure("the first frame is measured before the estimate") }
        let rest =
            pairsMeasured == 0 ? 0 : Double(pairBytes) * Double(max(0, frameCount - 1)) / Double(pairsMeasured)
        return firstBytes + Int(rest) + 38 * frameCount + 8 + 25 + 20 + 12 + model.paletteChunkBytes
    }

    private func planner(_ frames: [[UInt8]], _ model: PNGColorModel) -> FramePlanner {
        FramePlanner(frames: frames, width: width, height: height, model: model, options: options)
    }
}
