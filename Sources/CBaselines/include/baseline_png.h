#ifndef STICKER_BASELINE_PNG_H
#define STICKER_BASELINE_PNG_H

#include <stddef.h>
#include <stdint.h>

/// Decodes a whole static PNG stream with libpng (png_read_image), the way a typical libpng
/// caller does: expand palettes and low depths, tRNS to alpha, 16 to 8 bits, grey to RGB, and
/// an opaque filler, giving straight RGBA8 rows into `rgba` (width * height * 4 bytes).
/// Returns 0 on success, -1 on any libpng error (caught here with setjmp).
int baseline_png_decode_rgba(const uint8_t *data, size_t length,
                             uint8_t *rgba, uint32_t width, uint32_t height);

#endif
