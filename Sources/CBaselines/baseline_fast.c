// The baselines `stickers bench` measures us against, written as a plain C harness would:
// buffers reused across decodes, giflib's images drawn through a 32-bit palette, libpng's
// frames decoded into one buffer. Anything slower would flatter our ratios.
#include "baseline_fast.h"
#include "baseline_png.h"

#include <gif_lib.h>
#include <stdlib.h>
#include <string.h>

void baseline_buffers_free(baseline_buffers *b) {
    free(b->canvas);
    free(b->saved);
    free(b->frame);
    memset(b, 0, sizeof *b);
}

static int reserve_canvas(baseline_buffers *b, size_t bytes) {
    if (bytes <= b->canvas_capacity) return 1;
    uint8_t *canvas = realloc(b->canvas, bytes), *saved = canvas ? realloc(b->saved, bytes) : NULL;
    if (canvas) b->canvas = canvas;
    if (saved) b->saved = saved;
    if (!canvas || !saved) return 0;
    b->canvas_capacity = bytes;
    return 1;
}

typedef struct { const uint8_t *data; size_t length, offset; } gif_source;

static int read_gif(GifFileType *file, GifByteType *out, int count) {
    gif_source *source = file->UserData;
    size_t n = source->length - source->offset;
    if ((size_t)count < n) n = (size_t)count;
    memcpy(out, source->data + source->offset, n);
    source->offset += n;
    return (int)n;
}

static void rows_clear(uint8_t *canvas, int width, int x0, int y0, int x1, int y1) {
    for (int y = y0; y < y1; y++) memset(canvas + ((size_t)y * width + x0) * 4, 0, (size_t)(x1 - x0) * 4);
}

static void rows_copy(uint8_t *to, const uint8_t *from, int width, int x0, int y0, int x1, int y1) {
    for (int y = y0; y < y1; y++) {
        size_t at = ((size_t)y * width + x0) * 4;
        memcpy(to + at, from + at, (size_t)(x1 - x0) * 4);
    }
}

const uint8_t *baseline_gif_composite(const uint8_t *data, size_t length, baseline_buffers *b, int *width, int *height) {
    gif_source source = { data, length, 0 };
    int error = 0;
    GifFileType *gif = DGifOpen(&source, read_gif, &error);
    if (!gif) return NULL;
    if (DGifSlurp(gif) != GIF_OK) { DGifCloseFile(gif, &error); return NULL; }
    int W = gif->SWidth, H = gif->SHeight;
    if (!reserve_canvas(b, (size_t)W * H * 4)) { DGifCloseFile(gif, &error); return NULL; }
    uint8_t *canvas = b->canvas;
    memset(canvas, 0, (size_t)W * H * 4);
    int disposal = 0, px0 = 0, py0 = 0, px1 = 0, py1 = 0;
    for (int i = 0; i < gif->ImageCount; i++) {
        SavedImage *image = &gif->SavedImages[i];
        if (disposal == DISPOSE_BACKGROUND) rows_clear(canvas, W, px0, py0, px1, py1);
        else if (disposal == DISPOSE_PREVIOUS) rows_copy(canvas, b->saved, W, px0, py0, px1, py1);
        GraphicsControlBlock control = { 0, 0, 0, NO_TRANSPARENT_COLOR };
        DGifSavedExtensionToGCB(gif, i, &control);
        int w = image->ImageDesc.Width, x0 = image->ImageDesc.Left, y0 = image->ImageDesc.Top;
        int x1 = x0 + w > W ? W : x0 + w, y1 = y0 + image->ImageDesc.Height > H ? H : y0 + image->ImageDesc.Height;
        if (x0 > x1) x0 = x1;
        if (y0 > y1) y0 = y1;
        if (control.DisposalMode == DISPOSE_PREVIOUS) rows_copy(b->saved, canvas, W, x0, y0, x1, y1);
        ColorMapObject *map = image->ImageDesc.ColorMap ? image->ImageDesc.ColorMap : gif->SColorMap;
        // 0 marks "draw nothing": the transparent index and indexes past the table (every
        // real colour is opaque, so never 0).
        uint32_t palette[256] = { 0 };
        for (int k = 0; map && k < map->ColorCount && k < 256; k++) {
            GifColorType c = map->Colors[k];
            palette[k] = (uint32_t)c.Red | (uint32_t)c.Green << 8 | (uint32_t)c.Blue << 16 | 0xFF000000u;
        }
        if (control.TransparentColor >= 0 && control.TransparentColor < 256) palette[control.TransparentColor] = 0;
        for (int y = y0; y < y1; y++) {
            const uint8_t *indexes = image->RasterBits + (size_t)(y - y0) * w;
            uint8_t *row = canvas + ((size_t)y * W + x0) * 4;
            for (int x = 0; x < x1 - x0; x++) {
                uint32_t color = palette[indexes[x]];
                if (color) memcpy(row + (size_t)x * 4, &color, 4);
            }
        }
        disposal = control.DisposalMode;
        px0 = x0; py0 = y0; px1 = x1; py1 = y1;
    }
    DGifCloseFile(gif, &error);
    *width = W;
    *height = H;
    return canvas;
}

static inline uint8_t mul255(unsigned x, unsigned y) { return (uint8_t)((x * y + 127) / 255); }

/// Straight-alpha OVER, as a plain harness writes it (a division per channel).
static void over_straight(uint8_t *d, const uint8_t *s) {
    unsigned sa = s[3];
    if (sa == 255) { memcpy(d, s, 4); return; }
    if (sa == 0) return;
    unsigned da = d[3];
    if (da == 0) { memcpy(d, s, 4); return; }
    unsigned u = sa * 255, v = (255 - sa) * da, alpha = u + v;
    for (int c = 0; c < 3; c++) d[c] = (uint8_t)((s[c] * u + d[c] * v) / alpha);
    d[3] = (uint8_t)(alpha / 255);
}

/// Premultiplied SOURCE or OVER, exact integer rounding: what StickerKit outputs.
static void draw_premultiplied(uint8_t *d, const uint8_t *s, int blend) {
    unsigned a = s[3];
    if (a == 255) { memcpy(d, s, 4); return; }
    if (a == 0) { if (!blend) memset(d, 0, 4); return; }
    uint8_t p[4] = { mul255(s[0], a), mul255(s[1], a), mul255(s[2], a), (uint8_t)a };
    if (blend) for (int c = 0; c < 4; c++) d[c] = (uint8_t)(p[c] + mul255(d[c], 255 - a));
    else memcpy(d, p, 4);
}

const uint8_t *baseline_apng_composite(const uint8_t *const *streams, const size_t *lengths, const baseline_frame *frames,
                                       int count, uint32_t W, uint32_t H, int premultiplied, baseline_buffers *b) {
    if (!reserve_canvas(b, (size_t)W * H * 4)) return NULL;
    uint8_t *canvas = b->canvas;
    if (count == 1 && !premultiplied && frames[0].width == W && frames[0].height == H) {
        // A still: decoded straight into the canvas, as a harness decodes a PNG.
        return baseline_png_decode_rgba(streams[0], lengths[0], canvas, W, H) == 0 ? canvas : NULL;
    }
    memset(canvas, 0, (size_t)W * H * 4);
    for (int i = 0; i < count; i++) {
        const baseline_frame *f = &frames[i];
        size_t bytes = (size_t)f->width * f->height * 4;
        if (bytes > b->frame_capacity) {
            uint8_t *frame = realloc(b->frame, bytes);
            if (!frame) return NULL;
            b->frame = frame;
            b->frame_capacity = bytes;
        }
        if (baseline_png_decode_rgba(streams[i], lengths[i], b->frame, f->width, f->height) != 0) return NULL;
        uint32_t x1 = f->x + f->width > W ? W : f->x + f->width, y1 = f->y + f->height > H ? H : f->y + f->height;
        int dispose = (i == 0 && f->dispose == 2) ? 1 : f->dispose;
        if (dispose == 2) rows_copy(b->saved, canvas, (int)W, (int)f->x, (int)f->y, (int)x1, (int)y1);
        for (uint32_t y = f->y; y < y1; y++) {
            const uint8_t *s = b->frame + (size_t)(y - f->y) * f->width * 4;
            uint8_t *d = canvas + ((size_t)y * W + f->x) * 4;
            if (premultiplied) {
                for (uint32_t x = f->x; x < x1; x++, s += 4, d += 4) draw_premultiplied(d, s, f->blend);
            } else if (!f->blend || i == 0) {
                memcpy(d, s, (size_t)(x1 - f->x) * 4);
            } else {
                for (uint32_t x = f->x; x < x1; x++, s += 4, d += 4) over_straight(d, s);
            }
        }
        if (i + 1 == count) break;  // the last frame's dispose op is never shown
        if (dispose == 1) rows_clear(canvas, (int)W, (int)f->x, (int)f->y, (int)x1, (int)y1);
        else if (dispose == 2) rows_copy(canvas, b->saved, (int)W, (int)f->x, (int)f->y, (int)x1, (int)y1);
    }
    return canvas;
}
