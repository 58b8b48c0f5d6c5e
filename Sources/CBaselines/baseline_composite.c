// The plain per-pixel compositor the libpng and giflib baselines use: straightforward C,
// compiled with the package's optimisation settings, so the baseline is a fair one.
#include "baseline_composite.h"

static inline uint8_t mul255(unsigned x, unsigned y) { return (uint8_t)((x * y + 127) / 255); }

void baseline_draw(uint8_t *canvas, int canvas_width, int canvas_height,
                   const uint8_t *frame, int x, int y, int width, int height, int blend_over) {
    for (int row = 0; row < height; row++) {
        int cy = y + row;
        if (cy < 0 || cy >= canvas_height) continue;
        for (int col = 0; col < width; col++) {
            int cx = x + col;
            if (cx < 0 || cx >= canvas_width) continue;
            const uint8_t *s = frame + ((size_t)row * width + col) * 4;
            uint8_t *d = canvas + ((size_t)cy * canvas_width + cx) * 4;
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
    for (int row = 0; row < height; row++) {
        int cy = y + row;
        if (cy < 0 || cy >= canvas_height) continue;
        for (int col = 0; col < width; col++) {
            int cx = x + col;
            if (cx < 0 || cx >= canvas_width) continue;
            uint8_t *d = canvas + ((size_t)cy * canvas_width + cx) * 4;
            d[0] = d[1] = d[2] = d[3] = 0;
        }
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
