/// A frame's display time as stored: a fraction of a second.
///
/// APNG stores `delay_num / delay_den` (a denominator of 0 means 100); GIF stores hundredths.
public struct FrameDelay: Sendable, Hashable, CustomStringConvertible {
    /// The stored numerator.
    public var numerator: Int
    /// The stored denominator (0 is kept as stored; ``seconds`` reads it as 100).
    public var denominator: Int

    /// Creates a delay of `numerator / denominator` seconds.
    public init(numerator: Int, denominator: Int) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// A GIF delay in hundredths of a second.
    public static func centiseconds(_ value: Int) -> FrameDelay {
        FrameDelay(numerator: value, denominator: 100)
    }

    /// The delay in seconds, with the APNG rule that a zero denominator means 100.
    public var seconds: Double {
        Double(numerator) / Double(denominator == 0 ? 100 : denominator)
    }

    /// The delay in milliseconds, unclamped.
    public var milliseconds: Double { seconds * 1000 }

    /// `num/den s`.
    public var description: String { "\(numerator)/\(denominator) s" }

    /// The delay to store for a frame of `seconds`: ``stored(durations:)`` of that one frame.
    public init(seconds: Double) {
        self = Self.stored(durations: [seconds])[0]
    }

    /// The delays to store for frames lasting `durations` seconds, so every frame starts when
    /// it should: each delay ``exact(seconds:)`` when it can be (whole milliseconds; else the
    /// fraction that fits APNG's 16-bit fields: 1/60 s at 60 fps, not 17 ms, which would slow
    /// the loop; 7/90 s, not 78 ms); else the finest of tenths of milliseconds, milliseconds,
    /// hundredths, tenths or whole seconds that fits 16 bits, with each rounding carried into
    /// the next such delay, so start times never drift by more than half a unit. A duration
    /// longer than 65,535 s is stored as 65,535 s and its excess not carried; a negative or
    /// non-finite one as 0. The one rule every writer stores by.
    public static func stored(durations: [Double]) -> [FrameDelay] {
        var start = 0.0
        var storedStart = 0.0
        return durations.map { duration in
            let seconds = duration.isFinite ? max(0, duration) : 0
            let delay: FrameDelay
            if let exact = exact(seconds: seconds) {
                delay = exact
                storedStart += delay.seconds
            } else if start + seconds - storedStart > 65_535 {
                delay = FrameDelay(numerator: 65_535, denominator: 1)
                storedStart = start + seconds
            } else {
                let remaining = max(0, start + seconds - storedStart)
                let unit = [10_000, 1000, 100, 10].first { (remaining * Double($0)).rounded() <= 65_535 } ?? 1
                delay = FrameDelay(numerator: Int((remaining * Double(unit)).rounded()), denominator: unit)
                storedStart += delay.seconds
            }
            start += seconds
            return delay
        }
    }

    /// `seconds` exactly as APNG's 16-bit fields can hold it: whole milliseconds (up to 65,535),
    /// else the fraction ``fraction(nearestTo:)`` finds; `nil` when neither is exact.
    public static func exact(seconds: Double) -> FrameDelay? {
        guard seconds.isFinite, seconds >= 0 else { return nil }
        let milliseconds = seconds * 1000
        if abs(milliseconds - milliseconds.rounded()) < 1e-6, milliseconds.rounded() <= 65_535 {
            return FrameDelay(numerator: Int(milliseconds.rounded()), denominator: 1000)
        }
        return fraction(nearestTo: seconds)
    }

    /// The delay as APNG's two 16-bit fields: as stored when both fit (a zero denominator
    /// stays zero, which means 100), else the delay ``init(seconds:)`` stores for it.
    public var apngFields: (numerator: UInt16, denominator: UInt16) {
        if (0...65_535).contains(numerator) && (0...65_535).contains(denominator) {
            return (UInt16(numerator), UInt16(denominator))
        }
        let stored = FrameDelay(seconds: seconds)
        return (UInt16(clamping: stored.numerator), UInt16(clamping: stored.denominator))
    }

    /// The fraction with numerator and denominator at most 65,535 (APNG's fields) that equals
    /// `seconds` up to floating-point rounding (within 1e-12 s, so even thousands of frames add
    /// up to their exact start times), found among the continued fraction's convergents; `nil`
    /// when there is none.
    public static func fraction(nearestTo seconds: Double) -> FrameDelay? {
        guard seconds >= 0, seconds <= 65_535 else { return nil }
        // Convergents h/k: h(n) = a(n) h(n-1) + h(n-2), likewise k, from h = 0, 1 and k = 1, 0.
        var (numerators, denominators) = ((0, 1), (1, 0))
        var rest = seconds
        for _ in 0..<40 {
            let whole = rest.rounded(.down)
            let numerator = Int(whole) * numerators.1 + numerators.0
            let denominator = Int(whole) * denominators.1 + denominators.0
            guard numerator <= 65_535, denominator <= 65_535 else { return nil }
            numerators = (numerators.1, numerator)
            denominators = (denominators.1, denominator)
            if abs(Double(numerator) / Double(denominator) - seconds) < 1e-12 {
                return FrameDelay(numerator: numerator, denominator: denominator)
            }
            let fraction = rest - whole
            guard fraction > 1e-12 else { return nil }
            rest = 1 / fraction
        }
        return nil
    }
}

/// How a player turns stored delays into display times. The decoder never applies one; a
/// caller picks one explicitly.
public enum FrameTimingPolicy: String, Sendable, Hashable, CaseIterable {
    /// The stored delay, unchanged.
    case raw
    /// Chromium and Firefox: a delay is read as whole milliseconds, rounded down (Chromium's
    /// `delay_num * 1000 / delay_den` in integers, Firefox's cast to an integer), and 10 ms or
    /// less is then shown for 100 ms: 10.5 ms shows for 100 ms, 1/60 s for 16 ms.
    case browser
    /// Apple's image players (ImageIO): a delay under 11 ms is shown for 100 ms.
    case apple

    /// The delay this policy shows for a stored delay of `milliseconds`.
    public func displayMilliseconds(forStored milliseconds: Double) -> Double {
        switch self {
        case .raw: return milliseconds
        // A whole number a hair under its value (57/100 s is 569.999... ms) is that number.
        case .browser: return Self.browserShown(wholeMilliseconds: (milliseconds + 1e-9).rounded(.down))
        case .apple: return milliseconds < 11 ? 100 : milliseconds
        }
    }

    /// The delay this policy shows for `delay` of an image.
    public func displayMilliseconds(for delay: FrameDelay) -> Double {
        displayMilliseconds(for: delay, timedAsStored: false)
    }

    /// The delay this policy shows for `delay` of a file of `format`: a video's or a Lottie
    /// file's frame (``ImageFormat/isTimedAsStored``) shows for its own time under `raw` and
    /// `browser`, which play them by their timestamps (`apple` is Messages', which takes
    /// neither, and is the same for every format).
    public func displayMilliseconds(for delay: FrameDelay, format: ImageFormat?) -> Double {
        displayMilliseconds(for: delay, timedAsStored: format?.isTimedAsStored ?? false)
    }

    private func displayMilliseconds(for delay: FrameDelay, timedAsStored: Bool) -> Double {
        guard self == .browser else { return displayMilliseconds(forStored: delay.milliseconds) }
        if timedAsStored { return delay.milliseconds }
        // In whole numbers, as Chromium divides (a denominator of 0 is 100); a delay too large
        // for that (no file's: APNG's fields are 16 bits) is read in floating point.
        let denominator = delay.denominator == 0 ? 100 : delay.denominator
        let (product, overflow) = delay.numerator.multipliedReportingOverflow(by: 1000)
        guard delay.numerator >= 0, denominator > 0, !overflow else {
            return displayMilliseconds(forStored: delay.milliseconds)
        }
        return Self.browserShown(wholeMilliseconds: Double(product / denominator))
    }

    /// What browsers show for a delay of `whole` milliseconds: 100 ms for 10 or less.
    private static func browserShown(wholeMilliseconds whole: Double) -> Double { whole <= 10 ? 100 : whole }
}
