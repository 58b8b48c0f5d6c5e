// The libpng baseline of `stickers bench`: what a straightforward libpng user writes.
// libpng reports errors with longjmp, so this lives in C.
#include "baseline_png.h"

#include <png.h>
#include <setjmp.h>
#include <string.h>

typedef struct {
    const uint8_t *data;
    size_t length;
    size_t offset;
} memory_source;

static void read_from_memory(png_structp png, png_bytep out, size_t count) {
    memory_source *source = (memory_source *)png_get_io_ptr(png);
    if (source->length - source->offset < count) png_error(png, "read past end");
    memcpy(out, source->data + source->offset, count);
    source->offset += count;
}

int baseline_png_decode_rgba(const uint8_t *data, size_t length,
                             uint8_t *rgba, uint32_t width, uint32_t height) {
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    if (!png) return -1;
    png_infop info = png_create_info_struct(png);
    if (!info) { png_destroy_read_struct(&png, NULL, NULL); return -1; }
    png_bytep *rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        png_free(png, rows);
        png_destroy_read_struct(&png, &info, NULL);
        return -1;
    }
    memory_source source = { data, length, 0 };
    png_set_read_fn(png, &source, read_from_memory);
    png_read_info(png, info);
    if (png_get_image_width(png, info) != width || png_get_image_height(png, info) != height) {
        png_error(png, "unexpected size");
    }
    png_set_expand(png);
    png_set_scale_16(png);
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    rows = (png_bytep *)png_malloc(png, sizeof(png_bytep) * height);
    for (uint32_t y = 0; y < height; y++) rows[y] = rgba + (size_t)y * width * 4;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    png_free(png, rows);
    png_destroy_read_struct(&png, &info, NULL);
    return 0;
}
