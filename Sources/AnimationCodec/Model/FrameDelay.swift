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
    /// Chromium and Firefox: a delay of 10 ms or less is shown for 100 ms.
    case browser
    /// Apple's image players (ImageIO): a delay under 11 ms is shown for 100 ms.
    case apple

    /// The delay this policy shows for a stored delay of `milliseconds`.
    public func displayMilliseconds(forStored milliseconds: Double) -> Double {
        switch self {
        case .raw: return milliseconds
        case .browser: return milliseconds <= 10 ? 100 : milliseconds
        case .apple: return milliseconds < 11 ? 100 : milliseconds
        }
    }

    /// The delay this policy shows for `delay`.
    public func displayMilliseconds(for delay: FrameDelay) -> Double {
        displayMilliseconds(forStored: delay.milliseconds)
    }
}
