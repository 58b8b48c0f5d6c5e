/// The Messages extension's presentation style.
public enum BrowserStyle: String, Sendable, Hashable, CaseIterable {
    /// A strip at the bottom of the Messages view (25% of its height by default).
    case compact
    /// The whole Messages view.
    case expanded
}

/// How tall the compact strip is.
public enum CompactHeight: Sendable, Hashable, CustomStringConvertible {
    /// A fraction of the Messages view's height (0 < f <= 1).
    case fraction(Double)
    /// A height in points.
    case points(Double)
    /// About the keyboard's height: 38% of a portrait view (real keyboards take 35-40%).
    case keyboard

    /// The brief's default: a quarter of the view.
    public static let `default` = CompactHeight.fraction(0.25)

    /// The keyboard preset's fraction of the view height.
    public static let keyboardFraction = 0.38

    /// Parses `keyboard`, a fraction (`0.25`, `25%`) or points (`200`, `200pt`).
    public init?(parsing text: String) {
        let t = text.lowercased()
        if t == "keyboard" { self = .keyboard; return }
        if t.hasSuffix("%") {
            guard let percent = DurationParsing.decimal(t.dropLast()), percent > 0, percent <= 100 else { return nil }
            self = .fraction(percent / 100); return
        }
        let number = t.hasSuffix("pt") ? t.dropLast(2) : t[...]
        guard let value = DurationParsing.decimal(number), value.isFinite, value > 0 else { return nil }
        if value <= 1 && !t.hasSuffix("pt") { self = .fraction(value) } else { self = .points(value) }
    }

    /// The strip's height in points for a view `viewHeight` points tall, rounded to a whole
    /// point and at most the view.
    public func points(inViewHeight viewHeight: Double) -> Double {
        let raw: Double
        switch self {
        case .fraction(let f): raw = viewHeight * f
        case .points(let p): raw = p
        case .keyboard: raw = viewHeight * CompactHeight.keyboardFraction
        }
        return min(viewHeight, max(1, raw.rounded()))
    }

    /// `25%`, `200pt` or `keyboard`.
    public var description: String {
        switch self {
        case .fraction(let f): return "\(trimmed(f * 100))%"
        case .points(let p): return "\(trimmed(p))pt"
        case .keyboard: return "keyboard"
        }
    }
}
