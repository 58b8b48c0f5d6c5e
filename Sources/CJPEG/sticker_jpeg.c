// libjpeg reports fatal errors through `error_exit`, which must not return. Swift cannot
// unwind through setjmp/longjmp, so this shim catches them here and returns an error code.
#include "sticker_jpeg.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf escape;
    char *message;
    size_t capacity;
    // Warnings while the image data is decoded (not the header's or the trailer's, which
    // cost no pixel): their count, whether one was the data ending, the first one's text.
    int in_image;
    int image_warnings;
    int saw_end_of_data;
    char *warning;
    size_t warning_capacity;
} guarded_error_mgr;

static void guarded_error_exit(j_common_ptr cinfo) {
    guarded_error_mgr *mgr = (guarded_error_mgr *)cinfo->err;
    if (mgr->message && mgr->capacity > 0) {
        char buffer[JMSG_LENGTH_MAX];
        mgr->base.format_message(cinfo, buffer);
        snprintf(mgr->message, mgr->capacity, "%s", buffer);
    }
    longjmp(mgr->escape, 1);
}

// Warnings (corrupt but recoverable data) are not fatal; keep decoding as browsers do.
static void silent_output_message(j_common_ptr cinfo) { (void)cinfo; }

// Every message passes here; warnings (level -1) are counted as libjpeg's own emit_message
// counts them, and those met while the image data is decoded are kept for the caller.
// Trace messages (levels 0 and up) are dropped. The data source running out (JWRN_JPEG_EOF)
// costs pixels only when the entropy decoder then meets the end marker libjpeg puts in its
// place (JWRN_HIT_MARKER, counted below); alone it is a file that lacks only its EOI marker.
static void noting_emit_message(j_common_ptr cinfo, int msg_level) {
    guarded_error_mgr *mgr = (guarded_error_mgr *)cinfo->err;
    if (msg_level >= 0) return;
    mgr->base.num_warnings++;
    if (!mgr->in_image) return;
    if (mgr->base.msg_code == JWRN_JPEG_EOF) {
        mgr->saw_end_of_data = 1;
        return;
    }
    if (mgr->image_warnings++ == 0 && mgr->warning && mgr->warning_capacity > 0) {
        char buffer[JMSG_LENGTH_MAX];
        mgr->base.format_message(cinfo, buffer);
        snprintf(mgr->warning, mgr->warning_capacity, "%s", buffer);
    }
}

// Sets up `err` (fatal errors escape to its jmp_buf with their message in `error`, warnings
// are silent) and returns what a compressor's or decompressor's `err` is set to.
static struct jpeg_error_mgr *init_guard(guarded_error_mgr *err, char *error, size_t error_capacity) {
    struct jpeg_error_mgr *base = jpeg_std_error(&err->base);
    err->base.error_exit = guarded_error_exit;
    err->base.output_message = silent_output_message;
    err->message = error;
    err->capacity = error_capacity;
    err->in_image = 0;
    err->image_warnings = 0;
    err->saw_end_of_data = 0;
    err->warning = NULL;
    err->warning_capacity = 0;
    return base;
}

int sticker_jpeg_read_header(const uint8_t *data, size_t length,
                             sticker_jpeg_header *header,
                             char *error, size_t error_capacity) {
    struct jpeg_decompress_struct cinfo;
    guarded_error_mgr err;
    cinfo.err = init_guard(&err, error, error_capacity);
    // setjmp must run in the frame that stays live while libjpeg may longjmp back.
    if (setjmp(err.escape)) {
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)length);
    jpeg_read_header(&cinfo, TRUE);
    header->width = cinfo.image_width;
    header->height = cinfo.image_height;
    header->components = cinfo.num_components;
    header->is_progressive = jpeg_has_multiple_scans(&cinfo) ? 1 : 0;
    jpeg_destroy_decompress(&cinfo);
    return 0;
}

// CMYK as Chromium and Firefox turn it into RGB: every CMYK JPEG is read as Adobe's inverted
// CMYK (what Photoshop, ImageMagick and Pillow write), so R = C x K / 255, rounded down, and
// likewise G from M and B from Y. In place: both layouts take 4 bytes a pixel.
static void cmyk_to_rgba(uint8_t *row, size_t width) {
    for (size_t x = 0; x < width; x++) {
        uint8_t *p = row + 4 * x;
        unsigned k = p[3];
        p[0] = (uint8_t)(p[0] * k / 255);
        p[1] = (uint8_t)(p[1] * k / 255);
        p[2] = (uint8_t)(p[2] * k / 255);
        p[3] = 255;
    }
}

// The most scans a progressive file may have. Encoders write about ten; each scan is a pass
// over every coefficient of the image, so a file repeating one scan thousands of times (a few
// hundred bytes each) would decode for minutes. libjpeg-turbo's own tools take such a limit
// (`-maxscans`) through a progress monitor, as here.
enum { MAX_SCANS = 100 };

typedef struct {
    struct jpeg_progress_mgr base;
    guarded_error_mgr *err;
} scan_limit_monitor;

static void limit_scans(j_common_ptr cinfo) {
    scan_limit_monitor *monitor = (scan_limit_monitor *)cinfo->progress;
    if (!cinfo->is_decompressor) return;
    if (((j_decompress_ptr)cinfo)->input_scan_number <= MAX_SCANS) return;
    guarded_error_mgr *mgr = monitor->err;
    if (mgr->message && mgr->capacity > 0) {
        snprintf(mgr->message, mgr->capacity, "a progressive JPEG of more than %d scans", MAX_SCANS);
    }
    longjmp(mgr->escape, 1);
}

int sticker_jpeg_decode_rgba(const uint8_t *data, size_t length,
                             uint8_t *rgba, size_t rgba_capacity,
                             char *error, size_t error_capacity,
                             sticker_jpeg_warning *warning) {
    struct jpeg_decompress_struct cinfo;
    guarded_error_mgr err;
    cinfo.err = init_guard(&err, error, error_capacity);
    warning->count = 0;
    warning->truncated = 0;
    warning->message[0] = 0;
    err.base.emit_message = noting_emit_message;
    err.warning = warning->message;
    err.warning_capacity = sizeof warning->message;
    // setjmp must run in the frame that stays live while libjpeg may longjmp back.
    if (setjmp(err.escape)) {
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    jpeg_create_decompress(&cinfo);
    scan_limit_monitor monitor = {.base = {.progress_monitor = limit_scans}, .err = &err};
    cinfo.progress = &monitor.base;
    jpeg_mem_src(&cinfo, data, (unsigned long)length);
    jpeg_read_header(&cinfo, TRUE);
    err.in_image = 1;   // a progressive file's scans are all read by jpeg_start_decompress
    // libjpeg converts CMYK and YCCK to CMYK only; those rows become RGBA below.
    int cmyk = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK;
    cinfo.out_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGBA;   // JCS_EXT_RGBA: libjpeg-turbo's opaque RGBA
    jpeg_start_decompress(&cinfo);
    size_t stride = (size_t)cinfo.output_width * 4;
    if ((size_t)cinfo.output_height * stride > rgba_capacity || cinfo.output_components != 4) {
        snprintf(error, error_capacity, "output buffer does not match the decoded size");
        jpeg_destroy_decompress(&cinfo);
        return -1;
    }
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW row = rgba + (size_t)cinfo.output_scanline * stride;
        if (jpeg_read_scanlines(&cinfo, &row, 1) == 1 && cmyk) cmyk_to_rgba(row, cinfo.output_width);
    }
    err.in_image = 0;   // a missing EOI or padding before it costs no pixel
    jpeg_finish_decompress(&cinfo);
    warning->count = err.image_warnings;
    warning->truncated = err.saw_end_of_data && err.image_warnings > 0;
    jpeg_destroy_decompress(&cinfo);
    return 0;
}

int sticker_jpeg_encode_rgbx(const uint8_t *rgbx, uint32_t width, uint32_t height, int quality,
                             uint8_t **out, size_t *out_length,
                             char *error, size_t error_capacity) {
    struct jpeg_compress_struct cinfo;
    guarded_error_mgr err;
    cinfo.err = init_guard(&err, error, error_capacity);
    unsigned char *buffer = NULL;
    unsigned long size = 0;
    // setjmp must run in the frame that stays live while libjpeg may longjmp back.
    if (setjmp(err.escape)) {
        jpeg_destroy_compress(&cinfo);
        free(buffer);
        return -1;
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, &buffer, &size);
    cinfo.image_width = width;
    cinfo.image_height = height;
    cinfo.input_components = 4;
    cinfo.in_color_space = JCS_EXT_RGBX;   // libjpeg-turbo extension: the fourth byte is ignored
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality, TRUE);
    cinfo.optimize_coding = TRUE;
    jpeg_start_compress(&cinfo, TRUE);
    size_t stride = (size_t)width * 4;
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(rgbx + (size_t)cinfo.next_scanline * stride);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    *out = buffer;
    *out_length = size;
    return 0;
}
