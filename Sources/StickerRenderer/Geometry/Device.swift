/// A Messages view size in portrait points: a named device preset or any `WxH`.
public struct ViewSize: Sendable, Hashable, CustomStringConvertible {
    /// Width in points.
    public var width: Double
    /// Height in points.
    public var height: Double

    /// Creates a view size in points.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// The sides a view may have, in points.
    public static let sides = 1.0...4096.0

    /// Parses `WxH` in points (`390x844`, `390.5x844`), each side decimal and within ``sides``.
    public init?(parsing text: String) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let w = DurationParsing.decimal(parts[0]), let h = DurationParsing.decimal(parts[1]),
            Self.sides.contains(w), Self.sides.contains(h)
        else { return nil }
        self.init(width: w, height: h)
    }

    /// `WxH pt`.
    public var description: String { "\(trimmed(width))x\(trimmed(height)) pt" }
}

/// The named devices `--device` accepts: portrait screen sizes in points.
public enum DevicePreset: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// iPhone SE (1st generation), 320 x 568 pt: the small layout spec.
    case iphoneSE1 = "iphone-se-1"
    /// iPhone 8 and SE 2/3, 375 x 667 pt.
    case iphone8 = "iphone-8"
    /// iPhone 15, 393 x 852 pt (the default).
    case iphone15 = "iphone-15"
    /// iPhone 16 Pro Max, 440 x 956 pt.
    case iphone16ProMax = "iphone-16-pro-max"
    /// iPad mini (6th generation), 744 x 1133 pt.
    case ipadMini = "ipad-mini"
    /// iPad Pro 12.9-inch, 1024 x 1366 pt.
    case ipadPro129 = "ipad-pro-12.9"

    /// The default device.
    public static let `default` = DevicePreset.iphone15

    /// The portrait view size.
    public var viewSize: ViewSize {
        switch self {
        case .iphoneSE1: return ViewSize(width: 320, height: 568)
        case .iphone8: return ViewSize(width: 375, height: 667)
        case .iphone15: return ViewSize(width: 393, height: 852)
        case .iphone16ProMax: return ViewSize(width: 440, height: 956)
        case .ipadMini: return ViewSize(width: 744, height: 1133)
        case .ipadPro129: return ViewSize(width: 1024, height: 1366)
        }
    }

    /// The name `--device` takes.
    public var description: String { rawValue }
}

func trimmed(_ value: Double) -> String {
    value == value.rounded() ? String(Int(value)) : String(value)
}
