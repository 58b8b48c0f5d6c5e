// Text for the transcript: FreeType loads and scales outline fonts, HarfBuzz shapes and hands
// back outlines and colour-emoji PNGs. Both are loaded with dlopen when the first font is
// opened, so no other command pays for them at start-up; only plain C types cross this header.
#ifndef STICKER_TEXT_H
#define STICKER_TEXT_H

#include <stddef.h>
#include <stdint.h>

/// What `sticker_text_load` found.
enum sticker_text_status {
    STICKER_TEXT_OK = 0,
    STICKER_TEXT_NO_FREETYPE = 1,
    STICKER_TEXT_NO_HARFBUZZ = 2,
};

/// A font at one pixel size (opaque).
typedef struct sticker_font sticker_font;

/// One shaped glyph; positions in pixels, y up.
typedef struct {
    /// The font's glyph index.
    uint32_t glyph;
    /// The byte offset in the shaped UTF-8 the glyph comes from.
    uint32_t cluster;
    /// How far the pen moves after the glyph.
    float x_advance;
    /// Where the glyph is drawn from the pen, across.
    float x_offset;
    /// Where the glyph is drawn from the pen, up.
    float y_offset;
} sticker_glyph;

/// Path verbs handed to a `sticker_path_sink`, in pixels, y up.
enum sticker_path_verb {
    STICKER_PATH_MOVE = 0,
    STICKER_PATH_LINE = 1,
    STICKER_PATH_QUADRATIC = 2,
    STICKER_PATH_CUBIC = 3,
    STICKER_PATH_CLOSE = 4,
};

/// Receives an outline: `verb` a `sticker_path_verb`; MOVE and LINE use (x1, y1), QUADRATIC its
/// control (x1, y1) and end (x2, y2), CUBIC two controls and the end; `context` is the caller's.
typedef void (*sticker_path_sink)(void *context, int verb, float x1, float y1, float x2, float y2, float x3, float y3);

/// Loads both libraries once; a `sticker_text_status`.
int sticker_text_load(void);

/// The Debian package FreeType comes from, for messages.
const char *sticker_text_freetype_name(void);
/// The Debian package HarfBuzz comes from, for messages.
const char *sticker_text_harfbuzz_name(void);

/// Opens face `index` of the font file at `path` for `pixels` pixels an em: an outline font
/// through FreeType, a bitmap-only colour font (Noto Color Emoji) through HarfBuzz's own
/// OpenType functions, scaled from its strike. NULL when the file cannot be read as a font.
sticker_font *sticker_font_open(const char *path, unsigned index, float pixels);
/// Frees a font from `sticker_font_open` (NULL is ignored).
void sticker_font_close(sticker_font *font);

/// Ascender (positive), descender (negative) and line gap, in pixels.
void sticker_font_extents(sticker_font *font, float *ascender, float *descender, float *line_gap);

/// Whether the font has a glyph for `codepoint`.
int sticker_font_has_codepoint(sticker_font *font, uint32_t codepoint);

/// Shapes `length` bytes of UTF-8 in one direction (right to left when `right_to_left` is
/// non-zero; the script guessed from the text), glyphs in visual order, left to right; writes up
/// to `capacity` glyphs and returns how many there are (call again with more room when that is
/// larger).
int sticker_font_shape(sticker_font *font, const char *utf8, int length, int right_to_left, sticker_glyph *glyphs, int capacity);

/// Hands `glyph`'s outline to `sink`; nothing for a glyph without one.
void sticker_font_outline(sticker_font *font, uint32_t glyph, void *context, sticker_path_sink sink);

/// The colour PNG of `glyph` (CBDT), or NULL; `*blob` is released with `sticker_blob_release`.
const uint8_t *sticker_font_png(sticker_font *font, uint32_t glyph, size_t *length, void **blob);
/// Releases the blob a PNG's bytes live in (NULL is ignored).
void sticker_blob_release(void *blob);

/// `glyph`'s ink box in pixels (y up): bearing to its top-left corner, width, height (negative down).
int sticker_font_glyph_extents(sticker_font *font, uint32_t glyph, float *x_bearing, float *y_bearing, float *width, float *height);

/// FreeType's own unhinted advance of `glyph` (FT_Get_Advance), in pixels; -1 for a font not
/// opened through FreeType.
float sticker_font_freetype_advance(sticker_font *font, uint32_t glyph);

/// Whether FriBidi is installed (loaded with dlopen on first use), for bidirectional text.
int sticker_bidi_available(void);
/// The Debian package FriBidi comes from, for messages.
const char *sticker_bidi_package_name(void);
/// The Unicode Bidirectional Algorithm's resolved embedding levels (rules P2 to I2, and L1 for
/// the paragraph's separators and its end; the end of each line is the caller's) of one paragraph of `length` code points, its direction its first strong
/// character's: one level a code point into `levels`. Returns the paragraph's level (0 left to
/// right, 1 right to left), or -1 when FriBidi is not installed or fails.
int sticker_bidi_levels(const uint32_t *text, int length, uint8_t *levels);

#endif
