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
    /// The glyphs, left to right as shown.
    public var glyphs: [PlacedGlyph]
    /// Its width in points (the last glyph's advance included, trailing spaces not).
    public var width: Double
    /// The characters set in it that neither the text font nor the emoji font has a glyph
    /// for, each once, in the order they come: they are drawn as the font's missing-glyph box
    /// (Hebrew or Chinese in Inter, say). White space is not counted.
    public var missing: [Character] = []
    /// Whether its paragraph reads right to left (its first letter is Hebrew or Arabic, say):
    /// such a line is aligned to the right of its box.
    public var isRightToLeft = false
    /// Whether it sets right-to-left text left to right, so that it reads backwards: FriBidi
    /// (``TextLayout/bidiPackage``), which orders it, is not installed.
    public var hasUnorderedRightToLeft = false
}

/// Sets text in lines no wider than a width: shaped with HarfBuzz a run of one font and one
/// direction at a time (text, or colour emoji for what the text font lacks), broken after
/// spaces, a word wider than the line broken between characters, and each line's runs shown in
/// the order the Unicode Bidirectional Algorithm gives them (FriBidi's levels), so Hebrew and
/// Arabic read right to left among left-to-right words and digits.
public enum TextLayout {
    /// The Debian package that orders right-to-left text (FriBidi).
    public static var bidiPackage: String { BidiParagraph.package }

    /// `text` set in `style`, wrapped at `maxWidth` points (`.infinity`: one line a paragraph).
    public static func lines(_ text: String, style: TextStyle, maxWidth: Double = .infinity) -> [TextLine] {
        var lines: [TextLine] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let bidi = BidiParagraph(Array(paragraph))
            var line = LineBuilder()
            var offset = 0
            for word in words(of: paragraph) {
                let levels = Array(bidi.levels[offset..<offset + word.count])
                offset += word.count
                let set = setWord(word, levels: levels, style: style, unordered: bidi.isUnordered)
                let inkWidth = set.width - set.trailingSpace
                if !line.isEmpty && line.pen + inkWidth > maxWidth {
                    lines.append(line.finished(in: bidi))
                    line = LineBuilder()
                }
                if inkWidth > maxWidth {
                    // Too long for any line: broken between characters, each line's part shaped
                    // whole (so Arabic's letters join within it).
                    let characters = Array(word)
                    func part(_ range: Range<Int>) -> SetWord {
                        setWord(
                            Substring(String(characters[range])), levels: Array(levels[range]), style: style,
                            unordered: bidi.isUnordered)
                    }
                    var start = 0
                    var end = 0
                    while end < characters.count {
                        let candidate = part(start..<end + 1)
                        if line.pen + candidate.width - candidate.trailingSpace > maxWidth {
                            if end > start {
                                line.append(part(start..<end))
                                lines.append(line.finished(in: bidi))
                                line = LineBuilder()
                                start = end
                                continue
                            } else if !line.isEmpty {
                                lines.append(line.finished(in: bidi))
                                line = LineBuilder()
                                continue
                            }
                            // One character wider than an empty line: it takes the line.
                        }
                        end += 1
                    }
                    if start < end { line.append(part(start..<end)) }
                } else {
                    line.append(set)
                }
            }
            lines.append(line.finished(in: bidi))
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

    /// Glyphs of one embedding level, in the order they are shown, each placed from the piece's
    /// start; the glyphs of the word's trailing spaces are marked.
    private struct Piece {
        var level: UInt8
        var glyphs: [PlacedGlyph] = []
        /// Each glyph's advance in points, tracking included.
        var advances: [Double] = []
        var isTrailingSpace: [Bool] = []
        var width = 0.0
    }

    /// One word set: its pieces in logical order, its width, the width of its trailing
    /// spaces, the characters no font draws, and whether it sets right-to-left text unordered.
    private struct SetWord {
        var pieces: [Piece] = []
        var width = 0.0
        var trailingSpace = 0.0
        var missing: [Character] = []
        var hasUnorderedRightToLeft = false
    }

    /// A line being filled: its words' pieces in logical order.
    private struct LineBuilder {
        var pieces: [Piece] = []
        /// The pen after the last word, its trailing spaces included.
        var pen = 0.0
        var missing: [Character] = []
        var hasUnorderedRightToLeft = false
        /// How many of `pieces` the last word added.
        var lastWordPieces = 0

        var isEmpty: Bool { pieces.allSatisfy(\.glyphs.isEmpty) }

        mutating func append(_ set: SetWord) {
            pieces += set.pieces
            lastWordPieces = set.pieces.count
            missing += set.missing.filter { !missing.contains($0) }
            hasUnorderedRightToLeft = hasUnorderedRightToLeft || set.hasUnorderedRightToLeft
            pen += set.width
        }

        /// The line shown: the last word's trailing spaces left out (rule L1 gives them the
        /// paragraph's level, which puts them past the line's end), the pieces in the order
        /// rule L2 gives, each glyph placed from the line's left.
        func finished(in bidi: BidiParagraph) -> TextLine {
            var pieces = self.pieces
            for index in pieces.indices.suffix(lastWordPieces) {
                let piece = pieces[index]
                guard piece.isTrailingSpace.contains(true) else { continue }
                var kept = Piece(level: piece.level)
                // What follows a left-out space moves left by it (right to left, the trailing
                // spaces come first).
                var dropped = 0.0
                for (index, glyph) in piece.glyphs.enumerated() {
                    if piece.isTrailingSpace[index] {
                        dropped += piece.advances[index]
                    } else {
                        kept.glyphs.append(
                            PlacedGlyph(isEmoji: glyph.isEmoji, glyph: glyph.glyph, x: glyph.x - dropped))
                        kept.advances.append(piece.advances[index])
                        kept.isTrailingSpace.append(false)
                    }
                }
                kept.width = piece.width - dropped
                pieces[index] = kept
            }
            var line = TextLine(glyphs: [], width: 0, missing: missing)
            line.isRightToLeft = bidi.baseLevel % 2 == 1
            line.hasUnorderedRightToLeft = hasUnorderedRightToLeft
            var pen = 0.0
            for index in BidiParagraph.visualOrder(of: pieces.map(\.level)) {
                line.glyphs += pieces[index].glyphs.map {
                    PlacedGlyph(isEmoji: $0.isEmoji, glyph: $0.glyph, x: $0.x + pen)
                }
                pen += pieces[index].width
            }
            line.width = pen
            return line
        }
    }

    /// One word shaped in runs of one font and one level: its pieces (a piece a level, its
    /// glyphs placed from the piece's start), its width and the width of its trailing spaces.
    private static func setWord(_ word: Substring, levels: [UInt8], style: TextStyle, unordered: Bool) -> SetWord {
        var set = SetWord()
        let split = runs(of: word, levels: levels, style: style)
        set.missing = split.missing
        set.hasUnorderedRightToLeft = unordered && RightToLeftText.isIn(String(word))
        // The word's trailing spaces start at this character.
        let trailingStart = word.count - word.reversed().prefix(while: { $0 == " " }).count
        // Each run shaped in its direction, its glyphs placed from its own start.
        var shaped: [(level: UInt8, run: Piece)] = []
        var characterStart = 0
        for run in split.runs {
            let font = run.isEmoji ? style.emoji! : style.font
            // UTF-8 offset in the run where the word's trailing spaces begin.
            let spacesFrom = run.text.prefix(max(0, trailingStart - characterStart)).utf8.count
            let spacesInRun = characterStart + run.text.count > trailingStart
            characterStart += run.text.count
            var piece = Piece(level: run.level)
            for glyph in font.shape(run.text, rightToLeft: run.level % 2 == 1) {
                piece.glyphs.append(PlacedGlyph(isEmoji: run.isEmoji, glyph: glyph, x: 0))
                // Tracking spaces letters: marks and joiners (no advance) stay where they are.
                let advance = glyph.advance / style.scale + (run.isEmoji || glyph.advance <= 0 ? 0 : style.tracking)
                piece.advances.append(advance)
                let isSpace = spacesInRun && glyph.cluster >= spacesFrom
                piece.isTrailingSpace.append(isSpace)
                if isSpace { set.trailingSpace += advance }
            }
            shaped.append((run.level, piece))
        }
        // Runs of one level make a piece, shown in the piece's direction: right to left, the
        // later runs (another font's) stand to the left of the earlier ones.
        var start = 0
        while start < shaped.count {
            var end = start
            while end < shaped.count && shaped[end].level == shaped[start].level { end += 1 }
            let runs = shaped[start..<end].map(\.run)
            var piece = Piece(level: shaped[start].level)
            for run in shaped[start].level % 2 == 1 ? runs.reversed() : runs {
                for (index, glyph) in run.glyphs.enumerated() {
                    piece.glyphs.append(PlacedGlyph(isEmoji: glyph.isEmoji, glyph: glyph.glyph, x: piece.width))
                    piece.width += run.advances[index]
                }
                piece.advances += run.advances
                piece.isTrailingSpace += run.isTrailingSpace
            }
            set.pieces.append(piece)
            start = end
        }
        set.width = set.pieces.reduce(0) { $0 + $1.width }
        return set
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

    /// `word` split into runs of one level (`levels`, a character each) that the text font
    /// draws or that only the emoji font has, and the characters (not white space) that
    /// neither has, each once.
    private static func runs(of word: Substring, levels: [UInt8], style: TextStyle) -> (
        runs: [(text: String, isEmoji: Bool, level: UInt8)], missing: [Character]
    ) {
        var runs: [(text: String, isEmoji: Bool, level: UInt8)] = []
        var missing: [Character] = []
        for (character, level) in zip(word, levels) {
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
            if let last = runs.last, last.isEmoji == isEmoji, last.level == level {
                runs[runs.count - 1].text += String(character)
            } else {
                runs.append((String(character), isEmoji, level))
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
