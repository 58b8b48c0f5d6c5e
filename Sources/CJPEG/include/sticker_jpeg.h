#ifndef STICKER_JPEG_H
#define STICKER_JPEG_H

#include <stddef.h>
#include <stdint.h>

/// Size and layout of a JPEG stream, read from its header.
typedef struct {
    uint32_t width;
    uint32_t height;
    int components;
    int is_progressive;
} sticker_jpeg_header;

/// Reads the header of `data`. Returns 0 on success; otherwise writes a message to `error`.
int sticker_jpeg_read_header(const uint8_t *data, size_t length,
                             sticker_jpeg_header *header,
                             char *error, size_t error_capacity);

/// What libjpeg worked around while decoding the image data (corrupt or missing data it
/// recovered from; the header's and the trailer's warnings, which cost no pixel, are not counted).
typedef struct {
    /// How many warnings libjpeg gave while decoding the image data (0: it is whole; the data
    /// ending after the last pixel, with no EOI marker, is not counted).
    int count;
    /// Whether the data ended before the last pixel (libjpeg fills the rest in).
    int truncated;
    /// The first one's text.
    char message[200];
} sticker_jpeg_warning;

/// Decodes `data` into `rgba` (width * height * 4 bytes, opaque RGBA8, top row first).
/// Returns 0 on success, with what libjpeg worked around in `warning`; otherwise writes
/// libjpeg's message to `error`.
int sticker_jpeg_decode_rgba(const uint8_t *data, size_t length,
                             uint8_t *rgba, size_t rgba_capacity,
                             char *error, size_t error_capacity,
                             sticker_jpeg_warning *warning);

/// Encodes opaque pixels (`width * height * 4` bytes, the fourth of each ignored) as a baseline
/// JPEG of `quality` (1-100) with optimised Huffman tables. On success returns 0 and a buffer
/// in `out` that the caller frees with free(); otherwise writes libjpeg's message to `error`.
int sticker_jpeg_encode_rgbx(const uint8_t *rgbx, uint32_t width, uint32_t height, int quality,
                             uint8_t **out, size_t *out_length,
                             char *error, size_t error_capacity);

#endif
