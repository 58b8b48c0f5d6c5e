import AnimationCodec
import FoundationEssentials

/// What the browser is drawn on. Apple asks developers to try stickers on white, black,
/// red, yellow and multicoloured backgrounds and over photos.
public enum Background: Sendable, Hashable, CustomStringConvertible {
    /// Nothing: the output keeps alpha (PNG only; PPM and terminals put it over black).
    case transparent
    /// One opaque colour.
    case color(red: UInt8, green: UInt8, blue: UInt8)
    /// A grey checkerboard for reviewing alpha; `cell` is the square's side in pixels.
    case checker(cell: Int)
    /// Diagonal bands of saturated hues: a quick test of legibility on busy colour.
    case multicolor
    /// A picture, scaled to cover the canvas and centred (a photo test).
    case image(RGBAImage, name: String)

    /// The presets `--background` accepts by name, in the order `stickers sheet` shows them.
    public static let presets: [(name: String, background: Background)] = [
        ("white", .color(red: 255, green: 255, blue: 255)),
        ("black", .color(red: 0, green: 0, blue: 0)),
        ("red", .color(red: 255, green: 59, blue: 48)),
        ("yellow", .color(red: 255, green: 204, blue: 0)),
        ("multicolor", .multicolor),
        // The drawer's colour is not documented; these are iOS's grouped-background colours.
        ("light", .color(red: 242, green: 242, blue: 247)),
        ("dark", .color(red: 28, green: 28, blue: 30)),
        ("checker", .checker(cell: 8))
    ]

    /// Parses a preset name, `transparent`, or `#RRGGBB`. Image files are the caller's to load.
    public init?(named name: String) {
        let lower = name.lowercased()
        if lower == "transparent" || lower == "none" { self = .transparent; return }
        if let preset = Background.presets.first(where: { $0.name == lower }) { self = preset.background; return }
        let hex = lower.hasPrefix("#") ? String(lower.dropFirst()) : lower
        guard hex.count == 6, let value = UInt32(hex, radix: 16) else { return nil }
        self = .color(red: UInt8(value >> 16), green: UInt8((value >> 8) & 0xFF), blue: UInt8(value & 0xFF))
    }

    /// Whether the background covers every pixel.
    public var isOpaque: Bool {
        switch self {
        case .transparent: return false
        case .image(let image, _): return image.isOpaque
        default: return true
        }
    }

    /// A `width` x `height` canvas filled with the background.
    public func canvas(width: Int, height: Int) -> RGBAImage {
        switch self {
        case .transparent:
            return RGBAImage(width: width, height: height)
        case .color(let r, let g, let b):
            let word = UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | 0xFF00_0000
            let pixels = PixelStorage.bytes(count: width * height * 4) { buffer in
                let words = buffer.baseAddress!.bindMemory(to: UInt32.self, capacity: width * height)
                // Safe: `buffer` holds width * height * 4 bytes, i.e. width * height words.
                for i in 0..<(width * height) { words[i] = word.littleEndian }
            }
            return RGBAImage(width: width, height: height, pixels: pixels)
        case .checker(let cell):
            var pixels = [UInt8](repeating: 255, count: width * height * 4)
            let side = max(1, cell)
            for y in 0..<height {
                for x in 0..<width where ((x / side) + (y / side)) % 2 == 1 {
                    let o = (y * width + x) * 4
                    pixels[o] = 204; pixels[o + 1] = 204; pixels[o + 2] = 204
                }
            }
            return RGBAImage(width: width, height: height, pixels: pixels)
        case .multicolor:
            let bands: [(UInt8, UInt8, UInt8)] = [
                (255, 59, 48), (255, 149, 0), (255, 204, 0), (52, 199, 89), (0, 122, 255), (175, 82, 222)
            ]
            var pixels = [UInt8](repeating: 255, count: width * height * 4)
            for y in 0..<height {
                for x in 0..<width {
                    // Diagonal bands, so every cell of a grid crosses several colours.
                    let band = bands[((x + y) * bands.count / max(1, min(width, height) / 2)) % bands.count]
                    let o = (y * width + x) * 4
                    pixels[o] = band.0; pixels[o + 1] = band.1; pixels[o + 2] = band.2
                }
            }
            return RGBAImage(width: width, height: height, pixels: pixels)
        case .image(let picture, _):
            return Resampler().cover(picture, width: width, height: height)
        }
    }

    /// A name for messages and sheets.
    public var description: String {
        switch self {
        case .transparent: return "transparent"
        case .color(let r, let g, let b):
            if let preset = Background.presets.first(where: { $0.background == self }) { return preset.name }
            return "#" + [r, g, b].map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined()
        case .checker: return "checker"
        case .multicolor: return "multicolor"
        case .image(_, let name): return name
        }
    }
}
