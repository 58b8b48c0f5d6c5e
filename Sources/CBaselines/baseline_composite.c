// The plain per-pixel compositor the libpng and giflib baselines use: straightforward C,
// compiled with the package's optimisation settings, so the baseline is a fair one.
#include "baseline_composite.h"

static inline uint8_t mul255(unsigned x, unsigned y) { return (uint8_t)((x * y + 127) / 255); }

/// The part of a width x height rectangle at (x, y) inside the canvas, as column and row
/// ranges in the rectangle's own coordinates. Returns 0 when nothing is inside.
static int clip(int canvas_width, int canvas_height, int x, int y, int width, int height,
                int *col0, int *col1, int *row0, int *row1) {
    *col0 = x < 0 ? -x : 0;
    *row0 = y < 0 ? -y : 0;
    *col1 = x + width > canvas_width ? canvas_width - x : width;
    *row1 = y + height > canvas_height ? canvas_height - y : height;
    return *col0 < *col1 && *row0 < *row1;
}

void baseline_draw(uint8_t *canvas, int canvas_width, int canvas_height,
                   const uint8_t *frame, int x, int y, int width, int height, int blend_over) {
    int col0, col1, row0, row1;
    if (!clip(canvas_width, canvas_height, x, y, width, height, &col0, &col1, &row0, &row1)) return;
    for (int row = row0; row < row1; row++) {
        for (int col = col0; col < col1; col++) {
            const uint8_t *s = frame + ((size_t)row * width + col) * 4;
            uint8_t *d = canvas + ((size_t)(y + row) * canvas_width + x + col) * 4;
            unsigned a = s[3];
            uint8_t premultiplied[4] = { mul255(s[0], a), mul255(s[1], a), mul255(s[2], a), (uint8_t)a };
            if (!blend_over) {
                for (int c = 0; c < 4; c++) d[c] = premultiplied[c];
            } else {
                for (int c = 0; c < 4; c++) d[c] = (uint8_t)(premultiplied[c] + mul255(d[c], 255 - a));
            }
        }
    }
}

void baseline_clear(uint8_t *canvas, int canvas_width, int canvas_height, int x, int y, int width, int height) {
    int col0, col1, row0, row1;
    if (!clip(canvas_width, canvas_height, x, y, width, height, &col0, &col1, &row0, &row1)) return;
    for (int row = row0; row < row1; row++) {
        uint8_t *d = canvas + ((size_t)(y + row) * canvas_width + x + col0) * 4;
        for (int i = 0; i < (col1 - col0) * 4; i++) d[i] = 0;
    }
}

void baseline_gif_expand(const uint8_t *raster, size_t pixel_count, const uint8_t *rgb, int color_count,
                         int transparent, uint8_t *rgba) {
    for (size_t p = 0; p < pixel_count; p++) {
        int index = raster[p];
        uint8_t *out = rgba + p * 4;
        if (index == transparent || index >= color_count) {
            out[0] = out[1] = out[2] = out[3] = 0;
        } else {
            out[0] = rgb[index * 3];
            out[1] = rgb[index * 3 + 1];
            out[2] = rgb[index * 3 + 2];
            out[3] = 255;
        }
    }
}
