#include "sticker_text.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

// The few FreeType and HarfBuzz entry points used, declared by hand: every handle is opaque
// here and only the public plain structs below cross, so no header of either library (and no
// link-time dependency) is needed. The struct layouts are those of HarfBuzz's stable ABI.
typedef struct { uint32_t codepoint, mask, cluster, var1, var2; } hb_glyph_info;
typedef struct { int32_t x_advance, y_advance, x_offset, y_offset, var; } hb_glyph_position;
typedef struct { int32_t x_bearing, y_bearing, width, height; } hb_glyph_extents;
typedef struct { int32_t ascender, descender, line_gap, reserved[9]; } hb_font_extents;
typedef void (*hb_move_line)(void *, void *, void *, float, float, void *);
typedef void (*hb_quadratic)(void *, void *, void *, float, float, float, float, void *);
typedef void (*hb_cubic)(void *, void *, void *, float, float, float, float, float, float, void *);
typedef void (*hb_close)(void *, void *, void *, void *);

// HB_DIRECTION_LTR and HB_DIRECTION_RTL in hb_direction_t.
#define HB_DIRECTION_LTR 4
#define HB_DIRECTION_RTL 5

// FT_LOAD_NO_HINTING: outlines and advances as designed, scaled only.
#define FT_LOAD_NO_HINTING 2

static struct {
    int (*init)(void **);
    int (*new_face)(void *, const char *, long, void **);
    int (*set_char_size)(void *, long, long, unsigned, unsigned);
    int (*done_face)(void *);
    int (*done_library)(void *);
    int (*get_advance)(void *, unsigned, int32_t, long *);
} ft;

static struct {
    void *(*ft_font_create_referenced)(void *);
    void (*ft_font_set_load_flags)(void *, int);
    void *(*blob_create_from_file)(const char *);
    void (*blob_destroy)(void *);
    unsigned (*blob_get_length)(void *);
    const char *(*blob_get_data)(void *, unsigned *);
    void *(*face_create)(void *, unsigned);
    void (*face_destroy)(void *);
    unsigned (*face_get_glyph_count)(void *);
    void *(*font_create)(void *);
    void (*font_destroy)(void *);
    void (*font_set_scale)(void *, int, int);
    int (*font_get_h_extents)(void *, hb_font_extents *);
    int (*font_get_nominal_glyph)(void *, uint32_t, uint32_t *);
    int (*font_get_glyph_extents)(void *, uint32_t, hb_glyph_extents *);
    void (*font_get_glyph_shape)(void *, uint32_t, void *, void *);
    void *(*buffer_create)(void);
    void (*buffer_destroy)(void *);
    void (*buffer_add_utf8)(void *, const char *, int, unsigned, int);
    void (*buffer_guess_segment_properties)(void *);
    void (*buffer_set_direction)(void *, int);
    hb_glyph_info *(*buffer_get_glyph_infos)(void *, unsigned *);
    hb_glyph_position *(*buffer_get_glyph_positions)(void *, unsigned *);
    void (*shape)(void *, void *, const void *, unsigned);
    void *(*draw_funcs_create)(void);
    void (*draw_funcs_set_move_to_func)(void *, hb_move_line, void *, void *);
    void (*draw_funcs_set_line_to_func)(void *, hb_move_line, void *, void *);
    void (*draw_funcs_set_quadratic_to_func)(void *, hb_quadratic, void *, void *);
    void (*draw_funcs_set_cubic_to_func)(void *, hb_cubic, void *, void *);
    void (*draw_funcs_set_close_path_func)(void *, hb_close, void *, void *);
    void (*draw_funcs_make_immutable)(void *);
    void *(*ot_color_glyph_reference_png)(void *, uint32_t);
} hb;

static int status = -1;
static void *draw_funcs;
static pthread_once_t load_once = PTHREAD_ONCE_INIT;

#define FIND(table, library, field, name) \
    if (!((table).field = (__typeof__((table).field))dlsym(library, name))) return 0;

static int load_freetype(void) {
    void *library = dlopen("libfreetype.so.6", RTLD_NOW | RTLD_LOCAL);
    if (!library) return 0;
    FIND(ft, library, init, "FT_Init_FreeType");
    FIND(ft, library, new_face, "FT_New_Face");
    FIND(ft, library, set_char_size, "FT_Set_Char_Size");
    FIND(ft, library, done_face, "FT_Done_Face");
    FIND(ft, library, done_library, "FT_Done_FreeType");
    FIND(ft, library, get_advance, "FT_Get_Advance");
    return 1;
}

static int load_harfbuzz(void) {
    void *library = dlopen("libharfbuzz.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) return 0;
    FIND(hb, library, ft_font_create_referenced, "hb_ft_font_create_referenced");
    FIND(hb, library, ft_font_set_load_flags, "hb_ft_font_set_load_flags");
    FIND(hb, library, blob_create_from_file, "hb_blob_create_from_file");
    FIND(hb, library, blob_destroy, "hb_blob_destroy");
    FIND(hb, library, blob_get_length, "hb_blob_get_length");
    FIND(hb, library, blob_get_data, "hb_blob_get_data");
    FIND(hb, library, face_create, "hb_face_create");
    FIND(hb, library, face_destroy, "hb_face_destroy");
    FIND(hb, library, face_get_glyph_count, "hb_face_get_glyph_count");
    FIND(hb, library, font_create, "hb_font_create");
    FIND(hb, library, font_destroy, "hb_font_destroy");
    FIND(hb, library, font_set_scale, "hb_font_set_scale");
    FIND(hb, library, font_get_h_extents, "hb_font_get_h_extents");
    FIND(hb, library, font_get_nominal_glyph, "hb_font_get_nominal_glyph");
    FIND(hb, library, font_get_glyph_extents, "hb_font_get_glyph_extents");
    // hb_font_draw_glyph (HarfBuzz 7) replaced hb_font_get_glyph_shape (4-6) with the same shape.
    hb.font_get_glyph_shape = (__typeof__(hb.font_get_glyph_shape))dlsym(library, "hb_font_draw_glyph");
    if (!hb.font_get_glyph_shape) FIND(hb, library, font_get_glyph_shape, "hb_font_get_glyph_shape");
    FIND(hb, library, buffer_create, "hb_buffer_create");
    FIND(hb, library, buffer_destroy, "hb_buffer_destroy");
    FIND(hb, library, buffer_add_utf8, "hb_buffer_add_utf8");
    FIND(hb, library, buffer_guess_segment_properties, "hb_buffer_guess_segment_properties");
    FIND(hb, library, buffer_set_direction, "hb_buffer_set_direction");
    FIND(hb, library, buffer_get_glyph_infos, "hb_buffer_get_glyph_infos");
    FIND(hb, library, buffer_get_glyph_positions, "hb_buffer_get_glyph_positions");
    FIND(hb, library, shape, "hb_shape");
    FIND(hb, library, draw_funcs_create, "hb_draw_funcs_create");
    FIND(hb, library, draw_funcs_set_move_to_func, "hb_draw_funcs_set_move_to_func");
    FIND(hb, library, draw_funcs_set_line_to_func, "hb_draw_funcs_set_line_to_func");
    FIND(hb, library, draw_funcs_set_quadratic_to_func, "hb_draw_funcs_set_quadratic_to_func");
    FIND(hb, library, draw_funcs_set_cubic_to_func, "hb_draw_funcs_set_cubic_to_func");
    FIND(hb, library, draw_funcs_set_close_path_func, "hb_draw_funcs_set_close_path_func");
    FIND(hb, library, draw_funcs_make_immutable, "hb_draw_funcs_make_immutable");
    FIND(hb, library, ot_color_glyph_reference_png, "hb_ot_color_glyph_reference_png");
    return 1;
}

// The sink rides in the draw data; HarfBuzz's callbacks forward to it.
typedef struct {
    void *context;
    sticker_path_sink sink;
    float scale;
} outline_target;

// Hands one verb to the sink with its points scaled to pixels.
static void emit(void *data, int verb, float x1, float y1, float x2, float y2, float x3, float y3) {
    outline_target *t = data;
    float s = t->scale;
    t->sink(t->context, verb, x1 * s, y1 * s, x2 * s, y2 * s, x3 * s, y3 * s);
}
static void move_to(void *f, void *data, void *st, float x, float y, void *u) { emit(data, STICKER_PATH_MOVE, x, y, 0, 0, 0, 0); }
static void line_to(void *f, void *data, void *st, float x, float y, void *u) { emit(data, STICKER_PATH_LINE, x, y, 0, 0, 0, 0); }
static void quadratic_to(void *f, void *data, void *st, float cx, float cy, float x, float y, void *u) {
    emit(data, STICKER_PATH_QUADRATIC, cx, cy, x, y, 0, 0);
}
static void cubic_to(void *f, void *data, void *st, float c1x, float c1y, float c2x, float c2y, float x, float y, void *u) {
    emit(data, STICKER_PATH_CUBIC, c1x, c1y, c2x, c2y, x, y);
}
static void close_path(void *f, void *data, void *st, void *u) { emit(data, STICKER_PATH_CLOSE, 0, 0, 0, 0, 0, 0); }

static void load(void) {
    if (!load_freetype()) { status = STICKER_TEXT_NO_FREETYPE; return; }
    if (!load_harfbuzz()) { status = STICKER_TEXT_NO_HARFBUZZ; return; }
    draw_funcs = hb.draw_funcs_create();
    hb.draw_funcs_set_move_to_func(draw_funcs, move_to, NULL, NULL);
    hb.draw_funcs_set_line_to_func(draw_funcs, line_to, NULL, NULL);
    hb.draw_funcs_set_quadratic_to_func(draw_funcs, quadratic_to, NULL, NULL);
    hb.draw_funcs_set_cubic_to_func(draw_funcs, cubic_to, NULL, NULL);
    hb.draw_funcs_set_close_path_func(draw_funcs, close_path, NULL, NULL);
    hb.draw_funcs_make_immutable(draw_funcs);
    status = STICKER_TEXT_OK;
}

int sticker_text_load(void) {
    pthread_once(&load_once, load);
    return status;
}

const char *sticker_text_freetype_name(void) { return "libfreetype6"; }
const char *sticker_text_harfbuzz_name(void) { return "libharfbuzz0b"; }

struct sticker_font {
    void *library;   // FT_Library, one a font: FreeType's face calls are not thread-safe across a library
    void *face;      // FT_Face, or NULL for a font read by HarfBuzz alone
    void *hb_face;   // for a HarfBuzz-only font
    void *hb_font;
};

// HarfBuzz positions are in 26.6: 64 units a pixel.
static const float unit = 1.0f / 64;

sticker_font *sticker_font_open(const char *path, unsigned index, float pixels) {
    if (sticker_text_load() != STICKER_TEXT_OK || !(pixels > 0 && pixels < 10000)) return NULL;
    sticker_font *font = calloc(1, sizeof *font);
    if (!font) return NULL;
    if (ft.init(&font->library) == 0 && ft.new_face(font->library, path, (long)index, &font->face) == 0
        && ft.set_char_size(font->face, 0, (long)(pixels * 64 + 0.5f), 72, 72) == 0) {
        font->hb_font = hb.ft_font_create_referenced(font->face);
        hb.ft_font_set_load_flags(font->hb_font, FT_LOAD_NO_HINTING);
        return font;
    }
    // Not scalable by FreeType (a bitmap-only colour font): HarfBuzz's own OpenType
    // functions scale its metrics and strikes to any size.
    if (font->face) { ft.done_face(font->face); font->face = NULL; }
    if (font->library) { ft.done_library(font->library); font->library = NULL; }
    void *blob = hb.blob_create_from_file(path);
    if (!blob || hb.blob_get_length(blob) == 0) { if (blob) hb.blob_destroy(blob); free(font); return NULL; }
    font->hb_face = hb.face_create(blob, index);
    hb.blob_destroy(blob);
    if (hb.face_get_glyph_count(font->hb_face) == 0) { hb.face_destroy(font->hb_face); free(font); return NULL; }
    font->hb_font = hb.font_create(font->hb_face);
    int scale = (int)(pixels * 64 + 0.5f);
    hb.font_set_scale(font->hb_font, scale, scale);
    return font;
}

void sticker_font_close(sticker_font *font) {
    if (!font) return;
    hb.font_destroy(font->hb_font);
    if (font->hb_face) hb.face_destroy(font->hb_face);
    if (font->face) ft.done_face(font->face);
    if (font->library) ft.done_library(font->library);
    free(font);
}

void sticker_font_extents(sticker_font *font, float *ascender, float *descender, float *line_gap) {
    hb_font_extents extents = {0};
    hb.font_get_h_extents(font->hb_font, &extents);
    *ascender = extents.ascender * unit;
    *descender = extents.descender * unit;
    *line_gap = extents.line_gap * unit;
}

int sticker_font_has_codepoint(sticker_font *font, uint32_t codepoint) {
    uint32_t glyph = 0;
    return hb.font_get_nominal_glyph(font->hb_font, codepoint, &glyph) && glyph != 0;
}

int sticker_font_shape(sticker_font *font, const char *utf8, int length, int right_to_left, sticker_glyph *glyphs, int capacity) {
    void *buffer = hb.buffer_create();
    hb.buffer_add_utf8(buffer, utf8, length, 0, length);
    hb.buffer_guess_segment_properties(buffer);
    // The direction the layout resolved, not HarfBuzz's guess from the script: a run of digits
    // inside Hebrew is left to right, an exclamation mark after it right to left.
    hb.buffer_set_direction(buffer, right_to_left ? HB_DIRECTION_RTL : HB_DIRECTION_LTR);
    hb.shape(font->hb_font, buffer, NULL, 0);
    unsigned count = 0, positions_count = 0;
    hb_glyph_info *infos = hb.buffer_get_glyph_infos(buffer, &count);
    hb_glyph_position *positions = hb.buffer_get_glyph_positions(buffer, &positions_count);
    for (unsigned i = 0; i < count && (int)i < capacity; i++) {
        glyphs[i].glyph = infos[i].codepoint;
        glyphs[i].cluster = infos[i].cluster;
        glyphs[i].x_advance = positions[i].x_advance * unit;
        glyphs[i].x_offset = positions[i].x_offset * unit;
        glyphs[i].y_offset = positions[i].y_offset * unit;
    }
    hb.buffer_destroy(buffer);
    return (int)count;
}

void sticker_font_outline(sticker_font *font, uint32_t glyph, void *context, sticker_path_sink sink) {
    outline_target target = { context, sink, unit };
    hb.font_get_glyph_shape(font->hb_font, glyph, draw_funcs, &target);
}

const uint8_t *sticker_font_png(sticker_font *font, uint32_t glyph, size_t *length, void **blob) {
    void *png = hb.ot_color_glyph_reference_png(font->hb_font, glyph);
    unsigned size = 0;
    const char *data = png ? hb.blob_get_data(png, &size) : NULL;
    if (!data || size == 0) {
        if (png) hb.blob_destroy(png);
        *blob = NULL;
        *length = 0;
        return NULL;
    }
    *blob = png;
    *length = size;
    return (const uint8_t *)data;
}

void sticker_blob_release(void *blob) {
    if (blob) hb.blob_destroy(blob);
}

int sticker_font_glyph_extents(sticker_font *font, uint32_t glyph, float *x_bearing, float *y_bearing, float *width, float *height) {
    hb_glyph_extents extents = {0};
    if (!hb.font_get_glyph_extents(font->hb_font, glyph, &extents)) return 0;
    *x_bearing = extents.x_bearing * unit;
    *y_bearing = extents.y_bearing * unit;
    *width = extents.width * unit;
    *height = extents.height * unit;
    return 1;
}

float sticker_font_freetype_advance(sticker_font *font, uint32_t glyph) {
    if (!font->face) return -1;
    long advance = 0;
    if (ft.get_advance(font->face, glyph, FT_LOAD_NO_HINTING, &advance) != 0) return -1;
    return advance / 65536.0f;
}

// FriBidi, for the Unicode Bidirectional Algorithm (UAX #9): loaded on first use like the
// others, its few entry points declared by hand (FriBidiChar and FriBidiCharType are 32-bit,
// FriBidiStrIndex an int, FriBidiLevel a signed char).
static struct {
    void (*get_bidi_types)(const uint32_t *, int, uint32_t *);
    void (*get_bracket_types)(const uint32_t *, int, const uint32_t *, uint32_t *);
    signed char (*get_par_embedding_levels_ex)(const uint32_t *, const uint32_t *, int, uint32_t *, signed char *);
} fribidi;

// FRIBIDI_PAR_ON: the paragraph's direction is its first strong character's (rules P2, P3).
#define FRIBIDI_PAR_ON 0x40
// FRIBIDI_MASK_RTL: set in a right-to-left resolved paragraph direction.
#define FRIBIDI_MASK_RTL 0x1

static int bidi_status = 0;
static pthread_once_t bidi_once = PTHREAD_ONCE_INIT;

static int load_fribidi_entries(void) {
    void *library = dlopen("libfribidi.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) return 0;
    FIND(fribidi, library, get_bidi_types, "fribidi_get_bidi_types");
    FIND(fribidi, library, get_bracket_types, "fribidi_get_bracket_types");
    FIND(fribidi, library, get_par_embedding_levels_ex, "fribidi_get_par_embedding_levels_ex");
    return 1;
}

static void load_fribidi(void) { bidi_status = load_fribidi_entries(); }

int sticker_bidi_available(void) {
    pthread_once(&bidi_once, load_fribidi);
    return bidi_status;
}

const char *sticker_bidi_package_name(void) { return "libfribidi0"; }

int sticker_bidi_levels(const uint32_t *text, int length, uint8_t *levels) {
    if (!sticker_bidi_available() || length < 0) return -1;
    if (length == 0) return 0;
    uint32_t *types = malloc(sizeof(uint32_t) * (size_t)length * 2);
    signed char *resolved = malloc((size_t)length);
    if (!types || !resolved) { free(types); free(resolved); return -1; }
    uint32_t *brackets = types + length;
    fribidi.get_bidi_types(text, length, types);
    fribidi.get_bracket_types(text, length, types, brackets);
    uint32_t direction = FRIBIDI_PAR_ON;
    int result = -1;
    if (fribidi.get_par_embedding_levels_ex(types, brackets, length, &direction, resolved) > 0) {
        for (int i = 0; i < length; i++) levels[i] = (uint8_t)resolved[i];
        result = (direction & FRIBIDI_MASK_RTL) ? 1 : 0;
    }
    free(types);
    free(resolved);
    return result;
}
