import StickerPixels
import StickerRenderer
import StickerTranscript
import Testing

/// Text through FreeType and HarfBuzz: advances equal FreeType's own, outlines fill where the
/// glyph's ink box says, emoji come in colour.
@Suite("Fonts", .timeLimit(.minutes(3)))
struct FontTests {
    static let inter = "/usr/share/fonts/opentype/inter/Inter-Regular.otf"

    @Test("each character's shaped advance equals FreeType's own unhinted advance of its glyph, at 17 and 51 px")
    func advances() throws {
        for pixels in [17.0, 51.0] {
            let font = try Font(path: Self.inter, pixels: pixels)
            for character in "The quick brown fox jumps over the lazy dog 0123456789,.!?" {
                let glyphs = font.shape(String(character))
                #expect(glyphs.count == 1, "\(character)")
                guard let glyph = glyphs.first, let freeType = font.freeTypeAdvance(of: glyph.glyph) else {
                    Issue.record("no FreeType advance for \(character)")
                    continue
                }
                #expect(
                    abs(glyph.advance - freeType) <= 1.0 / 64,
                    "\(character) at \(pixels) px: \(glyph.advance) vs FreeType \(freeType)")
                #expect(freeType > 0)
            }
        }
    }

    @Test("an emoji the text font lacks comes from Noto Color Emoji as a colour bitmap the size of the text")
    func emoji() throws {
        let emoji = try Font(path: TranscriptFonts.debianEmoji, pixels: 51)
        let glyphs = emoji.shape("🎉")
        #expect(glyphs.count == 1)
        let bitmap = try #require(emoji.colorBitmap(of: glyphs[0].glyph))
        #expect(bitmap.png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG")
        // Noto Color Emoji's glyphs are about 1.2 em wide: within 40-80 px at 51 px an em.
        #expect((40...80).contains(bitmap.box.width) && (40...80).contains(bitmap.box.height), "\(bitmap.box)")
        let text = try Font(path: Self.inter, pixels: 51)
        #expect(!text.hasGlyph(for: "🎉") && text.hasGlyph(for: "A"))
    }

    @Test("a glyph's outline fills its own ink box: the letter l of Inter at 100 px is a bar")
    func outline() throws {
        let font = try Font(path: Self.inter, pixels: 100)
        let glyph = font.shape("l")[0]
        let path = try #require(font.outline(of: glyph.glyph, at: SIMD2(10, 120)))
        let mask = PathRasterizer.coverage(of: path, width: 200, height: 200)
        // The stem sits on the baseline (row 120) and rises about the ascender (73-77 px for Inter's l).
        #expect(mask.y + mask.height == 120, "\(mask.y) + \(mask.height)")
        #expect((40...50).contains(mask.y), "top \(mask.y)")
        let middle = mask.y + mask.height / 2
        let covered = (0..<200).filter { mask.value(column: $0, row: middle) > 128 }
        #expect((8...14).contains(covered.count), "stem \(covered.count) px wide")
    }

    @Test("Latin, Greek and Cyrillic shape with Inter's own glyphs (no .notdef), left to right with positive advances")
    func otherScripts() throws {
        let font = try Font(path: Self.inter, pixels: 17)
        for text in ["Stickers", "Αυτοκόλλητα", "Стикеры"] {
            let glyphs = font.shape(text)
            #expect(glyphs.count == text.count, "\(text)")
            #expect(glyphs.allSatisfy { $0.glyph != 0 && $0.advance > 0 }, "\(text)")
            #expect(glyphs.map(\.cluster) == glyphs.map(\.cluster).sorted(), "\(text): clusters in logical order")
        }
    }
}
