#ifndef STICKER_BASELINE_FAST_H
#define STICKER_BASELINE_FAST_H

#include <stddef.h>
#include <stdint.h>

/// Buffers a baseline keeps from one decode to the next, as a C harness would: the canvas,
/// the saved canvas for restore-to-previous, and one decoded frame.
typedef struct {
    uint8_t *canvas;
    uint8_t *saved;
    size_t canvas_capacity;
    uint8_t *frame;
    size_t frame_capacity;
} baseline_buffers;

/// Frees the buffers (the struct itself is the caller's).
void baseline_buffers_free(baseline_buffers *buffers);

/// One APNG frame's placement and operations (APNG values: dispose 0 none, 1 background,
/// 2 previous; blend 0 source, 1 over).
typedef struct {
    uint32_t x, y, width, height;
    uint8_t dispose, blend;
} baseline_frame;

/// giflib's DGifSlurp, then every image drawn through a 32-bit palette straight into the
/// canvas (GIF pixels are opaque or transparent, so premultiplied = straight), with disposal
/// 2 (clear) and 3 (restore previous). Returns the last canvas (premultiplied RGBA8,
/// *width x *height), or NULL when giflib fails. The canvas lives in `buffers`.
const uint8_t *baseline_gif_composite(const uint8_t *data, size_t length, baseline_buffers *buffers,
                                      int *width, int *height);

/// Every frame's PNG stream (an APNG frame rebuilt as a standalone PNG) decoded by libpng
/// into one reused buffer, then composited with the APNG rules: in straight RGBA8 as a plain
/// C harness does (rows copied, OVER by division), or, with `premultiplied`, in premultiplied
/// RGBA8 as StickerKit outputs it (for the agreement check). Returns the last canvas, or NULL
/// when libpng fails.
const uint8_t *baseline_apng_composite(const uint8_t *const *streams, const size_t *lengths,
                                       const baseline_frame *frames, int count,
                                       uint32_t canvas_width, uint32_t canvas_height, int premultiplied,
                                       baseline_buffers *buffers);

#endif
