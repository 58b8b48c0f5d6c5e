#ifndef STICKER_BASELINE_COMPOSITE_H
#define STICKER_BASELINE_COMPOSITE_H

#include <stddef.h>
#include <stdint.h>

/// The baselines' compositor step, written plainly in C: premultiply straight RGBA8 `frame`
/// pixels (width x height at x, y, clipped to the canvas) and draw them onto the
/// premultiplied `canvas` with SOURCE (`blend_over` 0) or OVER (1), one pixel at a time.
void baseline_draw(uint8_t *canvas, int canvas_width, int canvas_height,
                   const uint8_t *frame, int x, int y, int width, int height, int blend_over);

/// Clears a rectangle of the canvas to transparent (clipped).
void baseline_clear(uint8_t *canvas, int canvas_width, int canvas_height, int x, int y, int width, int height);

#endif

#ifndef STICKER_BASELINE_GIF_EXPAND
#define STICKER_BASELINE_GIF_EXPAND
/// Expands giflib's raster bits through a colour map of `color_count` RGB triples into
/// straight RGBA8 (`transparent` < 0 for none; indexes past the map stay transparent).
void baseline_gif_expand(const uint8_t *raster, size_t pixel_count, const uint8_t *rgb, int color_count,
                         int transparent, uint8_t *rgba);
#endif
