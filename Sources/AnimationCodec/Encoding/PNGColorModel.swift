/// The PNG colour type an encoder stores frames in: the smallest that holds every pixel of
/// every frame exactly.
public enum PNGColorModel: Sendable, Hashable, CustomStringConvertible {
    /// Colour type 6: straight RGBA8.
    case rgba
    /// Colour type 2: RGB8, every pixel opaque.
    case rgb
    /// Colour type 2 with a tRNS colour key: RGB8 where every pixel is opaque or fully
    /// transparent, the transparent ones stored as `key`, a colour no opaque pixel has (straight
    /// RGB packed R in the low byte). An opaque picture padded to a square takes three bytes a
    /// pixel instead of four.
    case rgbKeyed(key: UInt32)
    /// Colour type 3: at most 256 colours, with alpha through tRNS.
    case palette(PNGPalette)

    /// The IHDR colour type.
    var colorType: UInt8 {
        switch self {
        case .rgba: return 6
        case .rgb, .rgbKeyed: return 2
        case .palette: return 3
        }
    }

    /// The IHDR bit depth: 8, or fewer bits for a palette of at most 16 colours (indexes packed
    /// two, four or eight to a byte).
    var bitDepth: UInt8 {
        guard case .palette(let palette) = self, palette.packsIndexes else { return 8 }
        switch palette.colors.count {
        case ...2: return 1
        case ...4: return 2
        case ...16: return 4
        default: return 8
        }
    }

    /// Bytes in a scanline of `width` pixels, filter byte excluded.
    func rowBytes(width: Int) -> Int { (width * bytesPerPixel * Int(bitDepth) + 7) / 8 }

    /// Bytes a pixel takes in a scanline (1 for a palette, whatever its bit depth; the filters'
    /// "left" byte is then the byte before).
    var bytesPerPixel: Int {
        switch self {
        case .rgba: return 4
        case .rgb, .rgbKeyed: return 3
        case .palette: return 1
        }
    }

    /// Whether pixels are stored as palette indexes.
    public var isPalette: Bool {
        if case .palette = self { return true }
        return false
    }

    /// `rgba`, `rgb` or `palette(N)` (`palette(N, 2-bit)` when packed).
    public var description: String {
        switch self {
        case .rgba: return "rgba"
        case .rgb: return "rgb"
        case .rgbKeyed: return "rgb with a transparent key"
        case .palette(let palette): return "palette(\(palette.colors.count)\(bitDepth < 8 ? ", \(bitDepth)-bit" : ""))"
        }
    }

    /// Whether transparent pixels are stored as a colour key (RGB with tRNS).
    var isColorKeyed: Bool {
        if case .rgbKeyed = self { return true }
        return false
    }

    /// The same palette with 8-bit indexes (`nil` when this model does not pack them).
    var unpacked: PNGColorModel? {
        guard case .palette(var palette) = self, bitDepth < 8 else { return nil }
        palette.packsIndexes = false
        return .palette(palette)
    }

    /// The smallest model for `frames` (premultiplied RGBA8 canvases of equal size): a
    /// palette when they hold at most 256 colours, else RGB when all are opaque, else RGB with
    /// a colour key when every pixel is opaque or fully transparent and some colour is unused,
    /// else RGBA. Frame 0 is read whole; each later frame only where it differs from the one before.
    public static func smallest(for frames: [[UInt8]]) -> PNGColorModel {
        var census = ColorCensus()
        var previous: [UInt8]?
        // Once neither a palette, RGB nor a colour key is possible, the rest is not read.
        for frame in frames where census.anyModelLeft {
            census.count(frame, after: previous)
            previous = frame
        }
        return census.model(frameCount: frames.count)
    }

    /// tRNS for a colour key: the key's red, green and blue as 16-bit samples (empty otherwise).
    var colorKeyChunk: [UInt8] {
        guard case .rgbKeyed(let key) = self else { return [] }
        return [0, UInt8(key & 0xFF), 0, UInt8(key >> 8 & 0xFF), 0, UInt8(key >> 16 & 0xFF)]
    }
}

/// A PNG palette of premultiplied colours: translucent entries first (so tRNS stays short),
/// with a fully transparent entry whenever there is room in an animation's, for OVER frames to
/// leave pixels as they are.
public struct PNGPalette: Sendable, Hashable {
    /// Premultiplied RGBA8 packed little-endian (R in the low byte), in index order.
    public let colors: [UInt32]
    /// The index of each colour.
    private let indexes: ColorIndexTable
    /// Whether indexes are packed below 8 bits when the palette is small enough (smaller raw
    /// data, compressed several times faster; not always smaller once compressed).
    public var packsIndexes = true

    /// A palette of `colors` (at most 256, no repeats), with the fully transparent colour added
    /// when there is room and `addingTransparent`.
    init(colors: [UInt32], addingTransparent: Bool = true) {
        var all = colors
        if addingTransparent && all.count < 256 && !all.contains(0) { all.append(0) }
        // Translucent entries first (tRNS stops after the last one), then by luminance: similar
        // colours get nearby indexes, which the row filters turn into small numbers.
        func luminance(_ c: UInt32) -> UInt32 { 299 * (c & 0xFF) + 587 * (c >> 8 & 0xFF) + 114 * (c >> 16 & 0xFF) }
        let ordered = all.sorted { a, b in
            let (alphaA, alphaB) = (a >> 24, b >> 24)
            if alphaA != alphaB { return alphaA < alphaB }
            let (lumaA, lumaB) = (luminance(a), luminance(b))
            return lumaA != lumaB ? lumaA < lumaB : a < b
        }
        self.colors = ordered
        indexes = ColorIndexTable(ordered)
    }

    /// The index of `color`, which must be in the palette (0 for a colour that is not).
    func index(of color: UInt32) -> UInt8 { indexes.index(of: color) ?? 0 }

    /// The index of the fully transparent colour, if the palette has one.
    var transparentIndex: UInt8? { indexes.index(of: 0) }

    /// Palettes are equal when their colours, in order, and their packing are.
    public static func == (a: PNGPalette, b: PNGPalette) -> Bool {
        a.colors == b.colors && a.packsIndexes == b.packsIndexes
    }

    /// Hashes the colours and the packing, what equality compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(colors)
        hasher.combine(packsIndexes)
    }

    /// PLTE: straight RGB of every entry.
    var plte: [UInt8] {
        colors.flatMap { packed -> [UInt8] in
            let a = UInt8(packed >> 24)
            return [
                UInt8(truncatingIfNeeded: packed), UInt8(truncatingIfNeeded: packed >> 8),
                UInt8(truncatingIfNeeded: packed >> 16)
            ]
            .map { PNGEncoder.unpremultiply($0, alpha: a) }
        }
    }

    /// tRNS: the alpha of every entry up to the last translucent one (empty when all opaque).
    var trns: [UInt8] {
        let count = colors.lastIndex { $0 >> 24 != 0xFF }.map { $0 + 1 } ?? 0
        return colors.prefix(count).map { UInt8($0 >> 24) }
    }
}
