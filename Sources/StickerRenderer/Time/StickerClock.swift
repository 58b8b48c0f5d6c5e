import AnimationCodec

/// Which frame a sticker shows at a time on the browser's shared clock. Every sticker plays
/// its own loop from t = 0; after its last play it rests on its final frame.
public struct StickerClock: Sendable, Hashable {
    /// Display times in seconds, after the timing policy.
    public let durations: [Double]
    /// Plays (0 = forever).
    public let plays: Int
    /// Where each frame starts within a loop, seconds.
    public let starts: [Double]
    /// One loop, seconds.
    public let loopDuration: Double

    /// A clock for frames of `delays` of a file of `format` (`nil`: images) under `policy`
    /// (``FrameTimingPolicy/displayMilliseconds(for:format:)``).
    public init(delays: [FrameDelay], plays: Int, policy: FrameTimingPolicy, format: ImageFormat? = nil) {
        self.init(durations: delays.map { policy.displayMilliseconds(for: $0, format: format) / 1000 }, plays: plays)
    }

    /// Whole microseconds: the clock's arithmetic is exact integer arithmetic, so a frame
    /// boundary at 0.3 s is at 0.3 s, not 0.30000000000000004.
    private let durationMicros: [Int]
    private let startMicros: [Int]
    private let loopMicros: Int

    /// A clock for frames shown `durations` seconds each (rounded to microseconds; at most
    /// ``longestFrame`` a frame).
    public init(durations: [Double], plays: Int) {
        precondition(!durations.isEmpty)
        durationMicros = durations.map {
            $0.isFinite ? Int((min(Self.longestFrame, max(0, $0)) * 1e6).rounded()) : 0
        }
        self.plays = max(0, plays)
        var starts: [Int] = []
        var t = 0
        for d in durationMicros {
            starts.append(t)
            // Millions of hour-long frames would pass Int's range: the clock then stops there.
            let (sum, overflow) = t.addingReportingOverflow(d)
            t = overflow ? Int.max : sum
        }
        startMicros = starts
        loopMicros = t
        self.durations = durationMicros.map { Double($0) / 1e6 }
        self.starts = starts.map { Double($0) / 1e6 }
        loopDuration = Double(t) / 1e6
    }

    /// The longest a frame is shown, seconds: above every format's longest delay (an APNG's
    /// 65,535 s, about 18 hours); 10,000 such frames in microseconds stay far inside `Int`
    /// (past that, the loop's length saturates).
    public static let longestFrame = 1e6

    /// Whether the frame ever changes.
    public var isAnimated: Bool { durations.count > 1 && loopDuration > 0 }

    /// When the animation stops for good (`nil` when it loops forever or never moves).
    public var endTime: Double? {
        guard isAnimated, plays > 0 else { return nil }
        return endMicros.map { Double($0) / 1e6 }
    }

    /// The end of the last play in microseconds; `nil` for forever (or past Int's range).
    private var endMicros: Int? {
        guard plays > 0 else { return nil }
        let (end, overflow) = loopMicros.multipliedReportingOverflow(by: plays)
        return overflow ? nil : end
    }

    /// The frame shown at `time` seconds.
    public func frameIndex(at time: Double) -> Int {
        guard isAnimated else { return loopMicros > 0 ? 0 : durationMicros.count - 1 }
        guard !time.isNaN else { return 0 }
        let t = Self.micros(time)
        if let end = endMicros, t >= end { return durationMicros.count - 1 }
        let within = t % loopMicros
        // The last frame starting at or before `within` (zero-length frames are skipped over).
        var low = 0
        var high = startMicros.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if startMicros[mid] <= within { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// Every time in `0..<until` at which the shown frame changes, and 0.
    /// - Parameter maxCount: stops adding times past this many (hostile files with
    ///   microsecond delays).
    public func changeTimes(until: Double, maxCount: Int = 100_000) -> [Double] {
        var times: [Double] = [0]
        guard isAnimated, until > 0 else { return times }
        let limit = Self.micros(until)
        var loopStart = 0
        var play = 0
        while loopStart < limit && times.count < maxCount {
            for (index, start) in startMicros.enumerated() where index > 0 || play > 0 {
                let t = loopStart + start
                guard t < limit else { return times }
                if durationMicros[index] > 0 { times.append(Double(t) / 1e6) }
                if times.count >= maxCount { return times }
            }
            play += 1
            if plays > 0 && play >= plays { break }
            loopStart += loopMicros
        }
        return times
    }

    /// `time` in whole microseconds, to the nearest, as every reading of the clock takes it: a
    /// change ``nextChange(after:)`` returned (1.023 s, 1022999.9999999999 µs in floating
    /// point) reads back as itself, so a walk from change to change goes on. From 1e12 s on, a
    /// quarter of `Int`'s range: past any loop's end, with room to add a loop to it.
    private static func micros(_ time: Double) -> Int {
        time >= 1e12 ? Int.max / 4 : Int((max(0, time) * 1e6).rounded())
    }

    /// The first time after `time` (read to the nearest microsecond) at which the shown frame
    /// changes; `nil` when it never changes again (a still, or the last play has ended).
    public func nextChange(after time: Double) -> Double? {
        guard isAnimated, !time.isNaN else { return nil }
        let t = Self.micros(time)
        let loop = t / loopMicros
        let within = t - loop * loopMicros
        var next: Int?
        for (index, start) in startMicros.enumerated() where start > within && durationMicros[index] > 0 {
            next = loop * loopMicros + start
            break
        }
        let candidate = next ?? (loop + 1) * loopMicros
        if let end = endMicros, candidate >= end { return nil }
        return Double(candidate) / 1e6
    }
}
