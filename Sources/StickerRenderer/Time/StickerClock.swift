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

    /// A clock for frames of `delays` under `policy`.
    public init(delays: [FrameDelay], plays: Int, policy: FrameTimingPolicy) {
        self.init(durations: delays.map { policy.displayMilliseconds(for: $0) / 1000 }, plays: plays)
    }

    /// A clock for frames shown `durations` seconds each.
    public init(durations: [Double], plays: Int) {
        precondition(!durations.isEmpty)
        self.durations = durations.map { $0.isFinite ? max(0, $0) : 0 }
        self.plays = max(0, plays)
        var starts: [Double] = []
        var t = 0.0
        for d in self.durations {
            starts.append(t)
            t += d
        }
        self.starts = starts
        loopDuration = t
    }

    /// Whether the frame ever changes.
    public var isAnimated: Bool { durations.count > 1 && loopDuration > 0 }

    /// When the animation stops for good (`nil` when it loops forever or never moves).
    public var endTime: Double? {
        guard isAnimated, plays > 0 else { return nil }
        return loopDuration * Double(plays)
    }

    /// The frame shown at `time` seconds.
    public func frameIndex(at time: Double) -> Int {
        guard isAnimated else { return durations.count - 1 == 0 ? 0 : (loopDuration > 0 ? 0 : durations.count - 1) }
        if time < 0 { return 0 }
        if let end = endTime, time >= end { return durations.count - 1 }
        let within = time.truncatingRemainder(dividingBy: loopDuration)
        // The last frame starting at or before `within` (zero-length frames are skipped over).
        var low = 0, high = starts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if starts[mid] <= within { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// Every time in `0..<until` at which the shown frame changes, and 0.
    /// - Parameter maxCount: stops adding times past this many (hostile files with
    ///   microsecond delays).
    public func changeTimes(until: Double, maxCount: Int = 100_000) -> [Double] {
        var times: [Double] = [0]
        guard isAnimated else { return times }
        var loopStart = 0.0
        var play = 0
        while loopStart < until && times.count < maxCount {
            for (index, start) in starts.enumerated() where index > 0 || play > 0 {
                let t = loopStart + start
                guard t < until else { return times }
                if durations[index] > 0 || index == starts.count - 1 { times.append(t) }
                if times.count >= maxCount { return times }
            }
            play += 1
            if plays > 0 && play >= plays { break }
            loopStart += loopDuration
        }
        return times
    }
}
