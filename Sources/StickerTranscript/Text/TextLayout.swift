import AnimationCodec
import StickerPixels
import StickerRenderer

/// A font, its emoji fallback and how text is set with them: size, tracking, line pitch.
public final class TextStyle {
    /// The text font, at `size × scale` pixels.
    public let font: Font
    /// Colour emoji for what `font` has no glyph for, if available.
    public let emoji: Font?
    /// Points a pixel's worth: the drawing scale (1, 2 or 3).
    public let scale: Double
    /// Added to every glyph's advance, in points.
    public let tracking: Double
    /// Line pitch, in points.
    public let lineHeight: Double
    /// Colour-emoji bitmaps already scaled, by glyph, with their bearing in pixels.
    var emojiBitmaps: [UInt32: (image: RGBAImage, bearing: SIMD2<Double>)] = [:]

    /// Opens `fonts` at `size` points for drawing at `scale`.
    public init(
        fonts: TranscriptFonts, weight: TranscriptFonts.Weight = .regular, size: Double, scale: Double,
        tracking: Double = 0, lineHeight: Double
    ) throws(TextError) {
        font = try Font(path: fonts.path(weight), pixels: size * scale, package: fonts.package(weight))
        emoji = fonts.emoji.flatMap { try? Font(path: $0, pixels: size * scale) }
        self.scale = scale
        self.tracking = tracking
        self.lineHeight = lineHeight
    }

    /// Ascender in points.
    public var ascender: Double { font.ascender / scale }
    /// Descender in points (positive).
    public var descender: Double { font.descender / scale }
}

/// A glyph placed on a line: which font, where (points from the line's start), and its shape.
public struct PlacedGlyph: Sendable, Hashable {
    /// Whether it comes from the emoji font.
    public var isEmoji: Bool
    /// The glyph.
    public var glyph: ShapedGlyph
    /// Its pen position from the line's left, in points.
    public var x: Double
}

/// One line of set text.
public struct TextLine: Sendable, Hashable {
    /// The glyphs, left to right.
    public var glyphs: [PlacedGlyph]
    /// Its width in points (the last glyph's advance included, trailing spaces not).
    public var width: Double
    /// The characters set in it that neither the text font nor the emoji font has a glyph
    /// for, each once, in the order they come: they are drawn as the font's missing-glyph box
    /// (Hebrew or Chinese in Inter, say). White space is not counted.
    public var missing: [Character] = []
    /// Whether it sets a character of a right-to-left script (``RightToLeftText``), which it
    /// sets left to right all the same.
    public var hasRightToLeft = false
}

/// Sets text in lines no wider than a width: shaped with HarfBuzz a run of one font at a time
/// (text, or colour emoji for what the text font lacks), broken after spaces, a word wider
/// than the line broken between characters.
public enum TextLayout {
    /// `text` set in `style`, wrapped at `maxWidth` points (`.infinity`: one line a paragraph).
    public static func lines(_ text: String, style: TextStyle, maxWidth: Double = .infinity) -> [TextLine] {
        var lines: [TextLine] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = TextLine(glyphs: [], width: 0)
            var pen = 0.0
            for word in words(of: paragraph) {
                let set = setWord(word, style: style)
                let inkWidth = set.glyphs.isEmpty ? 0 : set.width - set.trailingSpace
                if !line.glyphs.isEmpty && pen + inkWidth > maxWidth {
                    lines.append(line)
                    line = TextLine(glyphs: [], width: 0)
                    pen = 0
                }
                if inkWidth > maxWidth {
                    // Too long for any line: break between characters.
                    for character in word {
                        let piece = setWord(Substring(String(character)), style: style)
                        if !line.glyphs.isEmpty && pen + piece.width - piece.trailingSpace > maxWidth {
                            lines.append(line)
                            line = TextLine(glyphs: [], width: 0)
                            pen = 0
                        }
                        append(piece, to: &line, pen: &pen)
                    }
                } else {
                    append(set, to: &line, pen: &pen)
                }
            }
            lines.append(line)
        }
        return lines
    }

    /// The widest line's width.
    public static func width(of lines: [TextLine]) -> Double { lines.map(\.width).max() ?? 0 }

    /// The box `line`'s ink covers, in points from its pen start and baseline (y down: `top`
    /// is negative above the baseline); all zero for a line without ink.
    public static func inkBounds(of line: TextLine, style: TextStyle) -> (
        left: Double, right: Double, top: Double, bottom: Double
    ) {
        var left = Double.infinity
        var right = -Double.infinity
        var top = Double.infinity
        var bottom = -Double.infinity
        for placed in line.glyphs {
            let origin = SIMD2(placed.x * style.scale + placed.glyph.offset.x, -placed.glyph.offset.y)
            if placed.isEmoji, let emoji = style.emoji, let bitmap = emoji.colorBitmap(of: placed.glyph.glyph) {
                left = min(left, origin.x + bitmap.box.left);
                right = max(right, origin.x + bitmap.box.left + bitmap.box.width)
                top = min(top, origin.y - bitmap.box.top);
                bottom = max(bottom, origin.y - bitmap.box.top + bitmap.box.height)
            } else if let outline = style.font.outline(of: placed.glyph.glyph, at: origin) {
                for point in outline.contours.joined() {
                    left = min(left, point.x); right = max(right, point.x); top = min(top, point.y);
                    bottom = max(bottom, point.y)
                }
            }
        }
        guard left <= right else { return (0, 0, 0, 0) }
        return (left / style.scale, right / style.scale, top / style.scale, bottom / style.scale)
    }

    private static func append(_ set: SetWord, to line: inout TextLine, pen: inout Double) {
        line.glyphs += set.glyphs.map { PlacedGlyph(isEmoji: $0.isEmoji, glyph: $0.glyph, x: $0.x + pen) }
        line.missing += set.missing.filter { !line.missing.contains($0) }
        line.hasRightToLeft = line.hasRightToLeft || set.hasRightToLeft
        line.width = pen + set.width - set.trailingSpace
        pen += set.width
    }

    /// Words, each with the spaces after it.
    private static func words(of paragraph: Substring) -> [Substring] {
        var words: [Substring] = []
        var start = paragraph.startIndex
        var index = paragraph.startIndex
        while index < paragraph.endIndex {
            if paragraph[index] == " " {
                var end = index
                while end < paragraph.endIndex && paragraph[end] == " " { end = paragraph.index(after: end) }
                words.append(paragraph[start..<end])
                start = end
                index = end
            } else {
                index = paragraph.index(after: index)
            }
        }
        if start < paragraph.endIndex { words.append(paragraph[start...]) }
        return words
    }

    /// One word set: shaped in runs of one font, its width, the width of its trailing spaces,
    /// and the characters no font draws.
    private typealias SetWord = (
        glyphs: [PlacedGlyph], width: Double, trailingSpace: Double, missing: [Character], hasRightToLeft: Bool
    )

    /// One word shaped in runs of one font; its width and the width of its trailing spaces.
    private static func setWord(_ word: Substring, style: TextStyle) -> SetWord {
        var glyphs: [PlacedGlyph] = []
        var pen = 0.0
        var trailingSpace = 0.0
        let split = runs(of: word, style: style)
        for (text, isEmoji) in split.runs {
            let font = isEmoji ? style.emoji! : style.font
            let utf8 = Array(text.utf8)
            for glyph in font.shape(text) {
                glyphs.append(PlacedGlyph(isEmoji: isEmoji, glyph: glyph, x: pen))
                // Tracking spaces letters: marks and joiners (no advance) stay where they are.
                let advance = glyph.advance / style.scale + (isEmoji || glyph.advance <= 0 ? 0 : style.tracking)
                pen += advance
                trailingSpace = glyph.cluster < utf8.count && utf8[glyph.cluster] == 0x20 ? trailingSpace + advance : 0
            }
        }
        return (glyphs, pen, trailingSpace, split.missing, RightToLeftText.isIn(String(word)))
    }

    /// Whether `style`'s text font has every glyph `character` draws, and whether its emoji
    /// font has any. Default-ignorable scalars draw nothing and are not asked for: the
    /// zero-width joiner, the variation selectors, the right-to-left mark, the word joiner.
    private static func coverage(of character: Character, style: TextStyle) -> (text: Bool, emoji: Bool) {
        let scalars = character.unicodeScalars.filter { !$0.properties.isDefaultIgnorableCodePoint }
        let textHasIt = scalars.allSatisfy { style.font.hasGlyph(for: $0) }
        let emojiHasIt = style.emoji.map { emoji in scalars.contains { emoji.hasGlyph(for: $0) } } ?? false
        return (textHasIt, emojiHasIt)
    }

    /// `word` split into runs the text font draws and runs only the emoji font has, and the
    /// characters (not white space) that neither has, each once.
    private static func runs(of word: Substring, style: TextStyle) -> (runs: [(String, Bool)], missing: [Character]) {
        var runs: [(String, Bool)] = []
        var missing: [Character] = []
        for character in word {
            let (textHasIt, emojiHasIt) = coverage(of: character, style: style)
            if !textHasIt && !emojiHasIt && !character.isWhitespace && !missing.contains(character) {
                missing.append(character)
            }
            // Emoji presentation: by default (U+1F600), or asked for with VS16 (U+2764 U+FE0F,
            // the red heart, which the text font may also have as a text glyph).
            let asksForEmoji =
                character.unicodeScalars.first?.properties.isEmojiPresentation == true
                || character.unicodeScalars.contains { $0.value == 0xFE0F }
            let isEmoji = !textHasIt && emojiHasIt || (emojiHasIt && asksForEmoji)
            if let last = runs.last, last.1 == isEmoji {
                runs[runs.count - 1].0 += String(character)
            } else {
                runs.append((String(character), isEmoji))
            }
        }
        return (runs, missing)
    }
}

/// Draws set text onto a canvas.
public enum TextPainter {
    /// Draws `line` with its pen starting at (`x`, `baseline`) points, glyphs filled with
    /// `color` (opaque sRGB), emoji in their own colours.
    public static func draw(
        _ line: TextLine, style: TextStyle, x: Double, baseline: Double, color: SIMD3<UInt8>, on canvas: inout RGBAImage
    ) {
        // Glyphs further than two ems outside the canvas are not drawn.
        let reach = style.font.pixels * 2
        guard baseline * style.scale > -reach, baseline * style.scale < Double(canvas.height) + reach else { return }
        for placed in line.glyphs {
            let origin = SIMD2(
                (x + placed.x) * style.scale + placed.glyph.offset.x, baseline * style.scale - placed.glyph.offset.y)
            guard origin.x > -reach, origin.x < Double(canvas.width) + reach else { continue }
            if placed.isEmoji, let emoji = style.emoji {
                drawBitmap(of: placed.glyph.glyph, style: style, font: emoji, at: origin, on: &canvas)
            } else if let outline = style.font.outline(of: placed.glyph.glyph, at: origin) {
                Painter.fill(
                    PathRasterizer.coverage(of: outline, width: canvas.width, height: canvas.height), color: color,
                    on: &canvas)
            }
        }
    }

    /// A colour glyph's PNG, scaled to its ink box (once a glyph and style) and drawn over the canvas.
    private static func drawBitmap(
        of glyph: UInt32, style: TextStyle, font: Font, at origin: SIMD2<Double>, on canvas: inout RGBAImage
    ) {
        if style.emojiBitmaps[glyph] == nil {
            guard let (png, box) = font.colorBitmap(of: glyph),
                let decoder = try? AnimationDecoder(bytes: png), let frame = try? decoder.frame(at: 0)
            else { return }
            let width = max(1, min(4096, Int(box.width.rounded())))
            let height = max(1, min(4096, Int(box.height.rounded())))
            let image = Resampler(filter: .lanczos3).resize(
                RGBAImage(width: frame.width, height: frame.height, pixels: frame.pixels),
                width: width, height: height)
            style.emojiBitmaps[glyph] = (image, SIMD2(box.left, box.top))
        }
        guard let (image, bearing) = style.emojiBitmaps[glyph] else { return }
        canvas.draw(image, atX: Int((origin.x + bearing.x).rounded()), y: Int((origin.y - bearing.y).rounded()))
    }
}
