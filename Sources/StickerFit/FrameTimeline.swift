import AnimationCodec
import StickerPack

/// Frames (premultiplied canvases) with their display times, and the timing-only edits `fit`
/// makes: merging repeats and lowering the frame rate.
public struct FrameTimeline: Sendable {
    /// Whole premultiplied RGBA8 canvases.
    public var frames: [[UInt8]]
    /// Each frame's display time in seconds.
    public var durations: [Double]

    /// Creates a timeline.
    public init(frames: [[UInt8]], durations: [Double]) {
        self.frames = frames
        self.durations = durations
    }

    /// The number of frames.
    public var count: Int { frames.count }
    /// Seconds one loop takes.
    public var totalSeconds: Double { durations.reduce(0, +) }
    /// Frames per second over the whole loop (0 for a still or a zero-length loop).
    public var framesPerSecond: Double { Self.framesPerSecond(durations) }

    /// Frames per second over a loop of frames shown for `durations` (0 for a still or a
    /// zero-length loop).
    static func framesPerSecond(_ durations: [Double]) -> Double {
        let loop = durations.reduce(0, +)
        return loop > 0 && durations.count > 1 ? Double(durations.count) / loop : 0
    }

    /// Consecutive identical frames merged into the first, their times summed.
    func mergingRepeats() -> FrameTimeline {
        var merging = RepeatMerging()
        var frames: [[UInt8]] = []
        for (frame, duration) in zip(self.frames, self.durations) where merging.add(frame, shownFor: duration) {
            frames.append(frame)
        }
        return FrameTimeline(frames: frames, durations: merging.durations)
    }

    /// ``mergingRepeats()`` for frames met one at a time: only the last frame is held.
    struct RepeatMerging {
        /// The display times of the frames kept so far, each with those of its repeats.
        private(set) var durations: [Double] = []
        private var last: [UInt8]?

        /// Adds `frame`, shown for `duration`: true when it is kept (the first, or unlike the
        /// frame before), false when it repeats the frame before, whose time it lengthens.
        mutating func add(_ frame: [UInt8], shownFor duration: Double) -> Bool {
            defer { last = frame }
            guard last != frame else {
                durations[durations.count - 1] += duration
                return false
            }
            durations.append(duration)
            return true
        }
    }

    /// One frame in every `step` (frames ⌊k × step⌋ for k = 0, 1, ...: every 2nd for 2, two
    /// of every five for 2.5), each shown for the time of the frames it stands for, so the
    /// loop keeps its length.
    func keepingEvery(_ step: Double) -> FrameTimeline {
        FrameTimeline(
            frames: Self.keptIndices(count: count, step: step).map { frames[$0] },
            durations: Self.durations(durations, keepingEvery: step))
    }

    /// The display times of the frames ``keepingEvery(_:)`` keeps of frames shown for
    /// `durations`: each kept frame's own and those of the frames dropped after it.
    static func durations(_ durations: [Double], keepingEvery step: Double) -> [Double] {
        let kept = keptIndices(count: durations.count, step: step)
        return kept.indices.map { position in
            let end = position + 1 < kept.count ? kept[position + 1] : durations.count
            return durations[kept[position]..<end].reduce(0, +)
        }
    }

    /// The first `seconds` of a loop of frames shown for `durations`, at their own speed: the
    /// display times of every frame that starts before then, the last one cut to end at
    /// `seconds` (all of them when the loop is no longer). A last frame the cut leaves under
    /// 11 ms of is dropped instead: Messages and browsers show such a frame for 100 ms, so the
    /// loop would stutter.
    static func durations(_ durations: [Double], keepingFirst seconds: Double) -> [Double] {
        var kept: [Double] = []
        var start = 0.0
        // A clip is never cut to nothing: a cut of no time keeps the first frame whole, a cut
        // shorter than it keeps the first frame, cut.
        guard seconds > 0 else { return Array(durations.prefix(1)) }
        for duration in durations where kept.isEmpty || start < seconds - 1e-9 {
            kept.append(min(duration, seconds - start))
            start += duration
        }
        // A cut last frame so short that Messages would hold it for 100 ms (Apple's timing) goes.
        // Judged to the microsecond, as it is stored: 0.211 - 0.2 s is 11 ms, not 10.999.
        if kept.count > 1, let last = kept.last, last < durations[kept.count - 1], isHeldLonger(last) {
            kept.removeLast()
        }
        return kept
    }

    /// Whether Messages shows a frame of `seconds` for longer than that (Apple's timing: under
    /// 11 ms, for 100 ms), judged to the microsecond, as it is stored: 0.211 - 0.2 s is 11 ms.
    static func isHeldLonger(_ seconds: Double) -> Bool {
        let milliseconds = (seconds * 1e6).rounded() / 1e3
        return FrameTimingPolicy.apple.displayMilliseconds(forStored: milliseconds) != milliseconds
    }

    /// Frames of `durations` grouped so Messages shows each group for its own time (11 ms or
    /// more, ``isHeldLonger(_:)``): a frame shorter than that (a zero-length one too) is merged
    /// with the frames after it until the group lasts that long, and a short group at the end
    /// joins the one before. Each group is shown
    /// as its longest frame (the first of equals) for the group's time, so the loop keeps its
    /// length and a frame shown for no time never stands for one that was. `nil` when no frame
    /// is that short.
    static func mergingShortFrames(_ durations: [Double]) -> (kept: [Int], durations: [Double])? {
        guard durations.count > 1, durations.contains(where: isHeldLonger) else { return nil }
        // Each group: the frame it shows (its longest) and how long the group lasts.
        struct Group {
            var shown: Int
            var longest: Double
            var total: Double

            mutating func take(_ other: Group) {
                if other.longest > longest { (shown, longest) = (other.shown, other.longest) }
                total += other.total
            }
        }
        var groups: [Group] = []
        for (index, duration) in durations.enumerated() {
            let frame = Group(shown: index, longest: duration, total: duration)
            if let last = groups.last, isHeldLonger(last.total) {
                groups[groups.count - 1].take(frame)
            } else {
                groups.append(frame)
            }
        }
        if groups.count > 1, let last = groups.last, isHeldLonger(last.total) {
            groups.removeLast()
            groups[groups.count - 1].take(last)
        }
        return (groups.map(\.shown), groups.map(\.total))
    }

    /// The frames ``keepingEvery(_:)`` keeps of `count`.
    static func keptIndices(count: Int, step: Double) -> [Int] {
        guard step > 1 else { return Array(0..<count) }
        var kept: [Int] = []
        for k in 0... {
            let index = Int((Double(k) * step + 1e-9).rounded(.down))
            guard index < count else { break }
            if kept.last != index { kept.append(index) }
        }
        return kept
    }

    /// The delays as stored, by the codec's one rule (``FrameDelay/stored(durations:)``).
    var delays: [FrameDelay] { FrameDelay.stored(durations: durations) }

    /// The frame shown `time` seconds after the start, the loop repeating (a timeline whose
    /// loop is shorter than another's comes round again: a speed-up shows as a difference).
    public func frameIndex(at time: Double) -> Int { Self.frameIndex(at: time, durations: durations) }

    /// The frame shown `time` seconds after the start of a loop of frames shown for `durations`
    /// (``frameIndex(at:)``).
    static func frameIndex(at time: Double, durations: [Double]) -> Int {
        let loop = durations.reduce(0, +)
        let count = durations.count
        guard count > 1, loop > 0 else { return 0 }
        let inLoop = time.truncatingRemainder(dividingBy: loop)
        var end = 0.0
        for (index, duration) in durations.enumerated() {
            end += duration
            if inLoop < end - 1e-9 { return index }
        }
        return count - 1
    }

    /// For each frame of `reference`, the frame this timeline shows at that frame's start
    /// time (its loop repeating): what a viewer sees of each against what it should be.
    func framesShown(atStartsOf reference: FrameTimeline) -> [[UInt8]] {
        Self.indicesShown(durations: durations, atStartsOf: reference.durations).map { frames[$0] }
    }

    /// For each frame of a reference shown for `referenceDurations`, the index of the frame a
    /// loop of frames shown for `durations` shows at that frame's start time (the loop
    /// repeating; ``frameIndex(at:)``).
    static func indicesShown(durations: [Double], atStartsOf referenceDurations: [Double]) -> [Int] {
        var start = 0.0
        return referenceDurations.map { duration in
            defer { start += duration }
            return frameIndex(at: start, durations: durations)
        }
    }

    /// For each frame of a loop shown for `durations`, the reference frames (shown for
    /// `referenceDurations`) that start while it is shown: ``indicesShown(durations:atStartsOf:)``
    /// the other way round, for a caller that meets the frames one at a time.
    static func referenceFramesShown(durations: [Double], atStartsOf referenceDurations: [Double]) -> [[Int]] {
        var shownFor = [[Int]](repeating: [], count: max(1, durations.count))
        for (index, shown) in indicesShown(durations: durations, atStartsOf: referenceDurations).enumerated() {
            shownFor[shown].append(index)
        }
        return shownFor
    }
}

extension FrameTimeline {
    /// Every frame `decoder` composites, with the display times a viewer gives them
    /// (``shownPolicy(for:)``): a file as a viewer sees it.
    public init(shownBy decoder: AnimationDecoder) throws(CodecError) {
        let policy = Self.shownPolicy(for: decoder.info.format)
        self.init(
            frames: try decoder.decodeAllFrames(threads: 1).map(\.pixels),
            durations: decoder.info.frames.map { policy.displayMilliseconds(for: $0.delay) / 1000 })
    }

    /// How a file of `format` is timed where it is shown: an image's frames (GIF, APNG, WebP)
    /// as Messages and browsers show them, a delay under 11 ms for 100 ms (Apple's rule); a
    /// video's (WebM) and a Lottie file's as stored, since players show every frame for its
    /// own time.
    public static func shownPolicy(for format: ImageFormat) -> FrameTimingPolicy {
        format.isTimedAsStored ? .raw : .apple
    }
}

extension StickerAnimation {
    /// Every frame, decoded, with the display times a viewer gives them (``shownDurations``):
    /// what `fit` scales, encodes and measures against.
    public func shownTimeline(threads: Int) throws(PackError) -> FrameTimeline {
        var frames: [[UInt8]] = []
        try forEachFrame(threads: threads) { _, frame in frames.append(frame.pixels) }
        return FrameTimeline(frames: frames, durations: shownDurations)
    }

    /// Each frame's display time in seconds, as it is shown
    /// (``FrameTimeline/shownPolicy(for:)``): an image's as Messages and browsers show it, a
    /// video's or a Lottie file's as stored.
    public var shownDurations: [Double] {
        let policy = FrameTimeline.shownPolicy(for: fileInfos[0].format)
        return delays.map { policy.displayMilliseconds(for: $0) / 1000 }
    }
}
