import AnimationCodec
import Foundation
import StickerPack
import StickerPixels
import StickerRenderer
import StickerTranscript
import TestSupport
import Testing

/// Right-to-left text against independent layouts: Pillow's libraqm layout (FriBidi and
/// HarfBuzz, drawn by FreeType) for whole lines, and the Unicode Bidirectional Algorithm's
/// rules (UAX #9) worked by hand for the order of words, digits and wrapped lines.
@Suite("Bidirectional text", .timeLimit(.minutes(3)))
struct BidirectionalTextTests {
    /// DejaVu Sans (fonts-dejavu-core, installed by make deps): Latin, Hebrew and Arabic with
    /// its joining forms.
    static let dejaVu = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    static func style(size: Double = 40) throws -> TextStyle {
        try #require(FileManager.default.fileExists(atPath: dejaVu), "fonts-dejavu-core is installed by make deps")
        return try TextStyle(fonts: TranscriptFonts(font: dejaVu), size: size, scale: 1, lineHeight: size * 1.2)
    }

    /// The font's glyphs for `text` one character at a time, in the order given: a line's
    /// expected glyphs, written in the order they are shown (DejaVu's Hebrew, Latin and digits
    /// have no contextual forms, so each character is one glyph wherever it stands).
    static func glyphs(shown text: String, style: TextStyle) -> [UInt32] {
        text.filter { $0 != " " }.map { style.font.shape(String($0))[0].glyph }
    }

    /// `line`'s glyphs left to right, spaces left out.
    static func inked(_ line: TextLine, style: TextStyle) -> [UInt32] {
        let space = style.font.shape(" ")[0].glyph
        return line.glyphs.map(\.glyph.glyph).filter { $0 != space }
    }

    @Test(
        "a line of Hebrew, Arabic, Latin, digits and brackets is drawn where Pillow's libraqm layout draws it",
        arguments: [
            "abc שלום עולם 123 def", "שלום abc 123 עולם!", "مرحبا بالعالم", "שלום (עולם)", "سلام 2024 world",
            "Hello, world"
        ])
    func againstRaqm(text: String) throws {
        let style = try Self.style()
        let lines = TextLayout.lines(text, style: style)
        try #require(lines.count == 1)
        var canvas = RGBAImage(width: 900, height: 100)
        TextPainter.draw(lines[0], style: style, x: 10, baseline: 60, color: SIMD3(255, 255, 255), on: &canvas)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("bidi-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let ours = folder.appendingPathComponent("ours.png")
        try Data(PNGEncoder.encode(premultiplied: canvas.pixels, width: 900, height: 100)).write(to: ours)
        // Pillow sets the same text with libraqm (right to left where the algorithm says so) and
        // with its basic layout (left to right, letters unjoined); the distance is the ink that
        // differs in 4 x 4 blocks, over the ink of libraqm's line.
        let oracle = """
            import sys
            import numpy as np
            from PIL import Image, ImageDraw, ImageFont, features
            assert features.check("raqm"), "Pillow has no libraqm (libfribidi0 is installed by make deps)"
            path, text, ours = sys.argv[1], sys.argv[2], sys.argv[3]
            def drawn(engine):
                font = ImageFont.truetype(path, 40, layout_engine=engine)
                image = Image.new("L", (900, 100), 0)
                ImageDraw.Draw(image).text((10, 60), text, font=font, fill=255, anchor="ls")
                return np.asarray(image, dtype=np.float64)
            def blocks(a):
                return a.reshape(25, 4, 225, 4).sum(axis=(1, 3))
            raqm = blocks(drawn(ImageFont.Layout.RAQM))
            basic = blocks(drawn(ImageFont.Layout.BASIC))
            mine = blocks(np.asarray(Image.open(ours).getchannel("A"), dtype=np.float64))
            print(np.abs(mine - raqm).sum() / raqm.sum(), np.abs(basic - raqm).sum() / raqm.sum())
            """
        let result = try TestProcess.capture(["python3", "-c", oracle, Self.dejaVu, text, ours.path])
        let figures = result.stdout.split(separator: " ").compactMap {
            Double($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        try #require(figures.count == 2, "\(result.stdout) \(result.stderr)")
        // Hinting and kerning across spaces move ink by a pixel here and there: Latin alone
        // differs by about 0.1 between Pillow's own two layouts.
        #expect(figures[0] < 0.2, "ours against libraqm: \(figures[0])")
        if RightToLeftText.isIn(text) {
            // The distance sees order: Pillow's left-to-right layout of the same text is far off.
            #expect(figures[1] > 0.5, "Pillow's basic layout against libraqm: \(figures[1])")
        }
    }

    @Test(
        "Hebrew among Latin and digits in a left-to-right line: the digits keep their order left of the Hebrew (UAX #9 N1, W7, I1, L2)"
    )
    func digitsInHebrew() throws {
        let style = try Self.style()
        let line = try #require(TextLayout.lines("abc אבג 123 def", style: style).first)
        // Levels: "abc " 0, "אבג" 1, the space before the digits 1 (N1: digits count as R),
        // "123" 2 (I1), the space before "def" 0 (N2), "def" 0. L2 reverses the level-2 run,
        // then the run at 1 and above: "abc 123 גבא def".
        #expect(Self.inked(line, style: style) == Self.glyphs(shown: "abc 123 גבא def", style: style))
        #expect(!line.isRightToLeft)
    }

    @Test("a right-to-left paragraph: Latin inside keeps its order, the full stop at its end is shown at its left")
    func rightToLeftParagraph() throws {
        let style = try Self.style()
        let line = try #require(TextLayout.lines("אבג def 12.", style: style).first)
        // The paragraph's first strong letter is Hebrew (P2, P3): level 1. "def 12" are at 2,
        // the space between "אבג" and "def" at 1 (N2), the full stop at 1: shown
        // ". def 12 גבא" reads, right to left, "אבג def 12.".
        #expect(Self.inked(line, style: style) == Self.glyphs(shown: ".def 12 גבא", style: style))
        #expect(line.isRightToLeft)
    }

    @Test(
        "an Arabic word longer than the line is broken between letters, each line's part joined (medial forms inside)")
    func longArabicWord() throws {
        let style = try Self.style(size: 20)
        let word = String(repeating: "ه", count: 60)
        let lines = TextLayout.lines(word, style: style, maxWidth: 150)
        #expect(lines.count >= 2)
        // Joined, a letter between two of its kind takes its medial form (the middle glyph of
        // three shaped together); alone, its isolated form.
        let medial = style.font.shape("ههه", rightToLeft: true)[1].glyph
        let isolated = style.font.shape("ه", rightToLeft: true)[0].glyph
        #expect(medial != isolated)
        for line in lines where line.glyphs.count >= 3 {
            let inside = line.glyphs.dropFirst().dropLast().map(\.glyph.glyph)
            #expect(inside.allSatisfy { $0 == medial }, "\(line.glyphs.map(\.glyph.glyph))")
            #expect(line.width <= 150)
        }
        #expect(lines.reduce(0) { $0 + $1.glyphs.count } == 60)
    }

    @Test("an emoji inside a Hebrew word stands where it is read: the letters after it are shown to its left")
    func emojiInHebrew() throws {
        let style = try Self.style()
        let emoji = try #require(style.emoji, "fonts-noto-color-emoji is installed by make deps")
        let line = try #require(TextLayout.lines("אב😀ג", style: style).first)
        // The emoji is a neutral between two Hebrew letters (N1): level 1 with them, one run
        // of another font inside the word, shown "ג😀בא" from the left.
        let face = try #require(emoji.shape("😀").first?.glyph)
        let shown = line.glyphs.map { ($0.isEmoji, $0.glyph.glyph) }
        let expected = [
            (false, style.font.shape("ג")[0].glyph), (true, face), (false, style.font.shape("ב")[0].glyph),
            (false, style.font.shape("א")[0].glyph)
        ]
        #expect(shown.count == 4 && zip(shown, expected).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }, "\(shown)")
        let xs = line.glyphs.map(\.x)
        #expect(zip(xs, xs.dropFirst()).allSatisfy { $0 < $1 }, "\(xs)")
    }

    @Test(
        "a wrapped right-to-left paragraph starts at the first line's right; a line's trailing space is no part of its width"
    )
    func wrappedRightToLeft() throws {
        let style = try Self.style()
        // Widths from FreeType's advance of each character's glyph, as the wrapping test does.
        func width(_ text: String) -> Double {
            text.reduce(0) { sum, character in
                sum + style.font.freeTypeAdvance(of: style.font.shape(String(character))[0].glyph)!
            }
        }
        let maxWidth = width("אבג דהו") + width("ז") / 2
        let lines = TextLayout.lines("אבג דהו זחט", style: style, maxWidth: maxWidth)
        #expect(lines.count == 2)
        guard lines.count == 2 else { return }
        // The first words in the order they are read sit on the first line, the first word
        // rightmost; the last word goes down to the second line.
        #expect(Self.inked(lines[0], style: style) == Self.glyphs(shown: "והד גבא", style: style))
        #expect(Self.inked(lines[1], style: style) == Self.glyphs(shown: "טחז", style: style))
        #expect(lines.allSatisfy { $0.isRightToLeft })
        // The space the first line breaks after is left out: its width is its two words and the
        // space between, and its first glyph (the leftmost) starts at the pen.
        #expect(abs(lines[0].width - width("אבג דהו")) < 0.5, "\(lines[0].width) vs \(width("אבג דהו"))")
        #expect(lines[0].glyphs.first?.x == 0)
    }

    @Test(
        "a wrapped right-to-left message's lines end at the bubble's right padding; a left-to-right one's start at the left"
    )
    func bubbleAlignment() throws {
        try #require(FileManager.default.fileExists(atPath: Self.dejaVu), "fonts-dejavu-core is installed by make deps")
        let hebrew = Array(repeating: "שלום עולם", count: 6).joined(separator: " ")
        let latin = Array(repeating: "Shalom olam", count: 6).joined(separator: " ")
        let conversation = Conversation(events: [
            .text(.them, hebrew, service: .iMessage), .text(.them, latin, service: .iMessage)
        ])
        var options = TranscriptOptions()
        options.scale = 1
        options.showAll = true
        options.fonts = TranscriptFonts(font: Self.dejaVu)
        let renderer = try TranscriptRenderer(
            conversation, pack: StickerPack(name: "", origin: .files, stickers: []), options: options)
        let image = try renderer.snapshot(at: 0)
        let bubbles = renderer.layout.items.compactMap { item -> (PointRect, [TextLine])? in
            guard case .bubble(let lines, _, _, _) = item.kind else { return nil }
            return (item.frame, lines)
        }
        try #require(bubbles.count == 2 && bubbles.allSatisfy { $0.1.count >= 2 })
        let padding = MessagesMetrics.bubblePaddingHorizontal
        // Dark ink (the received bubble is light grey) in each line's band of rows.
        func inkColumns(_ frame: PointRect, line: Int) -> (left: Int, right: Int)? {
            let top = Int(
                frame.y + MessagesMetrics.bubblePaddingVertical + Double(line) * MessagesMetrics.bodyLineHeight)
            var left = Int.max
            var right = Int.min
            for y in top..<top + Int(MessagesMetrics.bodyLineHeight) {
                for x in Int(frame.x)..<Int(frame.maxX) where image.pixel(x: x, y: y).g < 128 {
                    left = min(left, x)
                    right = max(right, x)
                }
            }
            return left <= right ? (left, right) : nil
        }
        let (hebrewFrame, hebrewLines) = bubbles[0]
        let (latinFrame, latinLines) = bubbles[1]
        for index in hebrewLines.indices {
            let ink = try #require(inkColumns(hebrewFrame, line: index))
            // A glyph's ink stops within a point or two of its advance.
            #expect(abs(Double(ink.right) - (hebrewFrame.maxX - padding)) <= 3, "line \(index): \(ink)")
        }
        for index in latinLines.indices {
            let ink = try #require(inkColumns(latinFrame, line: index))
            #expect(abs(Double(ink.left) - (latinFrame.x + padding)) <= 3, "line \(index): \(ink)")
        }
    }

    @Test(
        "random mixes of Hebrew, Arabic, Latin, digits, marks, emoji and direction controls: lines fit, glyphs run left to right, every letter is drawn once"
    )
    func randomMixes() throws {
        let style = try Self.style(size: 20)
        let pool: [String] = [
            "א", "ב", "ש", "ם", "ع", "ل", "م", "a", "b", "Z", "1", "7", " ", " ", "(", ")", "!", ".", "\u{05B8}",
            "\u{064E}", "😀", "\u{202B}", "\u{202C}", "\u{202E}", "\u{2067}", "\u{2069}", "\u{200F}", "\u{200E}"
        ]
        let hebrewAndLatin = Set("אבשםabZ17")
        var random = SplitMix(seed: 40)
        for _ in 0..<200 {
            let text = (0..<Int(random.next() % 60)).map { _ in pool[Int(random.next() % UInt64(pool.count))] }.joined()
            let maxWidth = 40 + Double(random.next() % 200)
            let lines = TextLayout.lines(text, style: style, maxWidth: maxWidth)
            for line in lines {
                // Pens move right, whatever the runs' directions.
                let xs = line.glyphs.map(\.x)
                #expect(zip(xs, xs.dropFirst()).allSatisfy { $0 <= $1 + 1e-9 }, "\(text.unicodeScalars.map(\.value))")
                #expect(line.width <= maxWidth || line.glyphs.count <= 3, "\(line.width) > \(maxWidth) in \(text)")
            }
            // Each Hebrew and Latin letter and digit (one glyph, no contextual form in DejaVu) is
            // drawn exactly once, in whichever line and order.
            let drawn = lines.flatMap { $0.glyphs.map(\.glyph.glyph) }
            for letter in hebrewAndLatin {
                let glyph = style.font.shape(String(letter))[0].glyph
                let expected = text.unicodeScalars.filter { Character($0) == letter }.count
                #expect(drawn.filter { $0 == glyph }.count == expected, "\(letter) in \(text)")
            }
        }
    }
}
