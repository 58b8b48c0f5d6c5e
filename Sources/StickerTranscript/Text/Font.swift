import CText
import StickerPixels
import StickerRenderer

/// Why text cannot be drawn.
public enum TextError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A library is not installed: the Debian package that provides it.
    case missingLibrary(package: String)
    /// A font file is missing or not a font: its path and the package that provides it.
    case unreadableFont(path: String, package: String?)

    /// What to do about it.
    public var description: String {
        switch self {
        case .missingLibrary(let package):
            return "text needs \(package): apt-get install \(package)"
        case .unreadableFont(let path, let package):
            return "cannot read the font \(path)"
                + (package.map { ": apt-get install \($0), or give another with --font" } ?? "")
        }
    }
}

/// One font file at one pixel size: FreeType loads and scales it, HarfBuzz shapes text with it
/// and hands back glyph outlines (or, for a colour-emoji font, each glyph's PNG).
///
/// Not thread-safe: each thread that draws text opens its own.
public final class Font {
    private let handle: OpaquePointer
    /// The size in pixels an em.
    public let pixels: Double
    /// Ascender above the baseline, in pixels.
    public let ascender: Double
    /// Descender below the baseline, in pixels (positive).
    public let descender: Double

    /// Opens face 0 of `path` at `pixels` pixels an em; `package` names the Debian package
    /// the file comes from, for the error.
    public init(path: String, pixels: Double, package: String? = nil) throws(TextError) {
        switch sticker_text_load() {
        case Int32(STICKER_TEXT_NO_FREETYPE.rawValue):
            throw .missingLibrary(package: String(cString: sticker_text_freetype_name()))
        case Int32(STICKER_TEXT_NO_HARFBUZZ.rawValue):
            throw .missingLibrary(package: String(cString: sticker_text_harfbuzz_name()))
        default: break
        }
        guard let handle = sticker_font_open(path, 0, Float(pixels)) else {
            throw .unreadableFont(path: path, package: package)
        }
        self.handle = handle
        self.pixels = pixels
        var ascender: Float = 0
        var descender: Float = 0
        var gap: Float = 0
        sticker_font_extents(handle, &ascender, &descender, &gap)
        self.ascender = Double(ascender)
        self.descender = Double(-descender)
    }

    deinit { sticker_font_close(handle) }

    /// Whether the font has a glyph for `scalar`.
    public func hasGlyph(for scalar: Unicode.Scalar) -> Bool {
        sticker_font_has_codepoint(handle, scalar.value) != 0
    }

    /// `text` shaped as one run, left to right or (`rightToLeft`) right to left: glyphs in the
    /// order they are shown, left to right, with their advances and offsets in pixels; each
    /// glyph's cluster is the UTF-8 offset in `text` it comes from.
    public func shape(_ text: String, rightToLeft: Bool = false) -> [ShapedGlyph] {
        var utf8 = Array(text.utf8)
        guard !utf8.isEmpty else { return [] }
        var capacity = utf8.count + 8
        while true {
            var glyphs = [sticker_glyph](repeating: sticker_glyph(), count: capacity)
            let count = utf8.withUnsafeMutableBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) {
                    sticker_font_shape(
                        handle, $0.baseAddress, Int32($0.count), rightToLeft ? 1 : 0, &glyphs, Int32(capacity))
                }
            }
            guard Int(count) > capacity else {
                return glyphs.prefix(Int(count)).map {
                    ShapedGlyph(
                        glyph: $0.glyph, cluster: Int($0.cluster), advance: Double($0.x_advance),
                        offset: SIMD2(Double($0.x_offset), Double($0.y_offset)))
                }
            }
            capacity = Int(count)
            utf8 = Array(text.utf8)
        }
    }

    /// FreeType's own unhinted advance of `glyph` in pixels (`nil` for a font FreeType cannot
    /// scale, such as a bitmap-only emoji font).
    public func freeTypeAdvance(of glyph: UInt32) -> Double? {
        let advance = sticker_font_freetype_advance(handle, glyph)
        return advance < 0 ? nil : Double(advance)
    }

    /// `glyph`'s outline with its origin at `origin` (pixels, y down), or `nil` when it has none.
    public func outline(of glyph: UInt32, at origin: SIMD2<Double>) -> VectorPath? {
        final class Sink { var path = VectorPath(); var origin = SIMD2<Double>.zero }
        let sink = Sink()
        sink.origin = origin
        withExtendedLifetime(sink) {
            sticker_font_outline(handle, glyph, Unmanaged.passUnretained(sink).toOpaque()) {
                context, verb, x1, y1, x2, y2, x3, y3 in
                let sink = Unmanaged<Sink>.fromOpaque(context!).takeUnretainedValue()
                // Font units are y up; the canvas is y down.
                func point(_ x: Float, _ y: Float) -> SIMD2<Double> { sink.origin + SIMD2(Double(x), -Double(y)) }
                switch verb {
                case Int32(STICKER_PATH_MOVE.rawValue): sink.path.move(to: point(x1, y1))
                case Int32(STICKER_PATH_LINE.rawValue): sink.path.line(to: point(x1, y1))
                case Int32(STICKER_PATH_QUADRATIC.rawValue):
                    sink.path.quadratic(to: point(x2, y2), control: point(x1, y1))
                case Int32(STICKER_PATH_CUBIC.rawValue):
                    sink.path.cubic(to: point(x3, y3), control1: point(x1, y1), control2: point(x2, y2))
                default: break
                }
            }
        }
        return sink.path.contours.isEmpty ? nil : sink.path
    }

    /// `glyph`'s colour bitmap (a PNG from the font's CBDT table) and its ink box in pixels
    /// (left, top above the baseline, width, height), or `nil` when it has none.
    public func colorBitmap(of glyph: UInt32) -> (
        png: [UInt8], box: (left: Double, top: Double, width: Double, height: Double)
    )? {
        var length = 0
        var blob: UnsafeMutableRawPointer?
        guard let bytes = sticker_font_png(handle, glyph, &length, &blob) else { return nil }
        defer { sticker_blob_release(blob) }
        var left: Float = 0
        var top: Float = 0
        var width: Float = 0
        var height: Float = 0
        guard sticker_font_glyph_extents(handle, glyph, &left, &top, &width, &height) != 0 else { return nil }
        return (
            Array(UnsafeBufferPointer(start: bytes, count: length)),
            (Double(left), Double(top), Double(width), Double(-height))
        )
    }
}

/// One glyph of shaped text.
public struct ShapedGlyph: Sendable, Hashable {
    /// The font's glyph index.
    public var glyph: UInt32
    /// The UTF-8 offset in the shaped text the glyph comes from.
    public var cluster: Int
    /// How far the pen moves after it, in pixels.
    public var advance: Double
    /// Where it is drawn from the pen, in pixels (y up).
    public var offset: SIMD2<Double>
}
