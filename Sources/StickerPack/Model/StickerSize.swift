/// The three sticker sizes of `MSStickerSize`; one size applies to a whole pack.
public enum StickerSize: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// 100 x 100 points (300 px @3x).
    case small
    /// 136 x 136 points (408 px @3x), Apple's default.
    case regular
    /// 206 x 206 points (618 px @3x).
    case large

    /// The nominal side in points.
    public var points: Int {
        switch self {
        case .small: return 100
        case .regular: return 136
        case .large: return 206
        }
    }

    /// The side in pixels Apple asks for: stickers are always supplied @3x.
    public var pixels: Int { points * 3 }

    /// The size whose @3x side is exactly `pixels`, if any.
    public init?(pixels: Int) {
        guard let size = StickerSize.allCases.first(where: { $0.pixels == pixels }) else { return nil }
        self = size
    }

    /// The name, as in `grid-size`.
    public var description: String { rawValue }
}
