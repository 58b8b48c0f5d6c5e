/* wuffs_harness.c - single-threaded decode+composite benchmark of wuffs' own GIF and
 * PNG/APNG decoders: the "wuffs" column of the benchmark docs.
 *
 * Targets wuffs 0.4 (tag v0.4.0-alpha.9, "0.4.0-alpha.9+3837.20240914"), the single-file
 * release release/c/wuffs-v0.4.c, which the build includes with -I WUFFS_DIR/release/c.
 * scripts/wuffs-bench.sh builds and runs it.
 *
 * One decode of a file produces what every peer in the benchmark docs produces, the displayed
 * RGBA8 canvas of every frame:
 *   - decode_image_config, then for every frame decode_frame_config and decode_frame, with
 *     the disposal, blend (overwrite_instead_of_blend) and background colour wuffs reports;
 *   - decode_frame writes each frame straight into the canvas, RGBA_NONPREMUL (straight
 *     RGBA8, W*H*4 bytes) or, with --premultiplied, RGBA_PREMUL (premultiplied RGBA8, the
 *     frames stickers produces): wuffs' own swizzler blends it over what is there;
 *   - the canvas starts filled with frame 0's background colour (transparent under wuffs'
 *     default quirks, for GIF as for PNG), the convention of wuffs' example/convert-to-nia;
 *   - after each frame is shown: restore-background fills the frame's rectangle with its
 *     background colour, restore-previous copies back the rectangle saved before the frame.
 *     An APNG first frame that restores "previous" thus restores the transparent canvas,
 *     which is what the APNG spec asks (treat it as restore-background).
 * wuffs 0.4's PNG decoder reads acTL/fcTL/fdAT itself, so APNG files are decoded in full
 * (every animation frame; a default image outside the animation is skipped, as the spec
 * says). No file is decoded as a still only.
 *
 * Settings: wuffs' defaults (no quirks), so PNG chunk CRCs and zlib Adler-32 checksums are
 * verified (stickers verifies chunk CRCs, not Adler-32: a wrong Adler-32 after complete image
 * data changes nothing shown, and Chromium shows such files). --ignore-checksum sets wuffs'
 * QUIRK_IGNORE_CHECKSUM instead (PNG only), which skips both, so wuffs then does less checking
 * than ours. Decoders are initialized with WUFFS_INITIALIZE__LEAVE_INTERNAL_BUFFERS_UNINITIALIZED,
 * as wuffs' own benchmarks do (test/c/std/png.c). The decoder, canvas, saved rectangle and
 * work buffer are allocated in the untimed verification pass and reused by every timed decode.
 *
 * The CRC-32 (IEEE, the same as zlib's crc32) runs over every composited canvas in order.
 * Blending rounds as wuffs does (16-bit intermediates), so a file that blends partly
 * transparent pixels over others can give a different CRC from another decoder's.
 *
 * usage:  wuffs_harness FILE [min_seconds] [--premultiplied] [--ignore-checksum] [--dump OUT.rgba]
 *                       [--compare IN.rgba]
 * prints: RESULT wuffs file frames W H ms_per_file_median MPps crc32  (median of 5 runs,
 *         each run loops the whole-file decode until min_seconds/5 elapsed; default 1 s)
 *         --compare reads every frame of another decoder (W*H*4 bytes each, in order, as
 *         `stickers frames FILE --format rgba` writes them, concatenated) and adds
 *         "COMPARE frames_compared max_channel_difference differing_bytes" before RESULT
 *         (frames_compared -1: IN.rgba holds a different number of frames' bytes).
 * build:  gcc -O3 -march=native -I WUFFS_DIR/release/c scripts/wuffs_harness.c -o wuffs_harness
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Only the modules GIF and PNG need, and only the destination pixel format we ask for. */
#define WUFFS_IMPLEMENTATION
#define WUFFS_CONFIG__STATIC_FUNCTIONS
#define WUFFS_CONFIG__MODULES
#define WUFFS_CONFIG__MODULE__ADLER32
#define WUFFS_CONFIG__MODULE__BASE
#define WUFFS_CONFIG__MODULE__CRC32
#define WUFFS_CONFIG__MODULE__DEFLATE
#define WUFFS_CONFIG__MODULE__GIF
#define WUFFS_CONFIG__MODULE__PNG
#define WUFFS_CONFIG__MODULE__ZLIB
#define WUFFS_CONFIG__DST_PIXEL_FORMAT__ENABLE_ALLOWLIST
#define WUFFS_CONFIG__DST_PIXEL_FORMAT__ALLOW_RGBA_NONPREMUL
#define WUFFS_CONFIG__DST_PIXEL_FORMAT__ALLOW_RGBA_PREMUL
#include "wuffs-v0.4.c"

typedef struct { uint8_t *p; size_t n; } buf_t;

/* Reads a whole file into memory; prints why not and returns -1 when it cannot. */
static int read_file(const char *path, buf_t *f) {
  FILE *fp = fopen(path, "rb"); if (!fp) { perror(path); return -1; }
  fseek(fp, 0, SEEK_END); f->n = (size_t)ftell(fp); fseek(fp, 0, SEEK_SET);
  f->p = malloc(f->n ? f->n : 1);
  int ok = f->p && fread(f->p, 1, f->n, fp) == f->n;
  fclose(fp);
  if (!ok) { fprintf(stderr, "%s: read failed\n", path); return -1; }
  return 0;
}

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec * 1e-9; }

/* ---- output sink: every composited frame is passed here ---- */
static wuffs_crc32__ieee_hasher g_hasher; static uint32_t g_crc; static int g_verify;
static FILE *g_dump; static long g_frames; static uint32_t g_W, g_H; static int g_premultiplied; static int g_ignore_checksum;
/* --compare: the other decoder's frames, and how far ours differ from them. */
static buf_t g_other; static int g_other_short; static unsigned g_max_diff; static size_t g_diff_bytes;
static void emit(const uint8_t *canvas) {
  size_t n = (size_t)g_W * g_H * 4;
  if (g_verify) g_crc = wuffs_crc32__ieee_hasher__update_u32(&g_hasher, wuffs_base__make_slice_u8((uint8_t *)canvas, n));
  if (g_dump) fwrite(canvas, 1, n, g_dump);
  if (g_verify && g_other.p) {
    size_t at = (size_t)g_frames * n;
    if (at + n > g_other.n) g_other_short = 1;
    else for (size_t i = 0; i < n; i++) {
      unsigned d = canvas[i] > g_other.p[at + i] ? canvas[i] - g_other.p[at + i] : g_other.p[at + i] - canvas[i];
      if (d) { g_diff_bytes++; if (d > g_max_diff) g_max_diff = d; }
    }
  }
  g_frames++;
}

/* ---- buffers, grown in the verification pass and reused by the timed decodes ---- */
static union { wuffs_gif__decoder gif; wuffs_png__decoder png; } g_dec;
static uint8_t *g_canvas, *g_saved, *g_work; static size_t g_cap, g_workcap;
static int ensure(size_t canvas, size_t work) {
  if (canvas > g_cap) {
    g_canvas = realloc(g_canvas, canvas); g_saved = realloc(g_saved, canvas); g_cap = canvas;
    if (!g_canvas || !g_saved) return -1;
  }
  if (work > g_workcap) {
    g_work = realloc(g_work, work); g_workcap = work;
    if (!g_work) return -1;
  }
  return 0;
}

/* Fills rectangle r of the canvas with wuffs' premultiplied ARGB colour, stored as RGBA in the
 * canvas's kind (straight, or premultiplied with --premultiplied). */
static void fill_rect(wuffs_base__rect_ie_u32 r, wuffs_base__color_u32_argb_premul premul) {
  uint32_t c = g_premultiplied ? premul : wuffs_base__color_u32_argb_premul__as__color_u32_argb_nonpremul(premul);
  uint8_t px[4] = { (uint8_t)(c >> 16), (uint8_t)(c >> 8), (uint8_t)c, (uint8_t)(c >> 24) };
  uint32_t v; memcpy(&v, px, 4);
  for (uint32_t y = r.min_incl_y; y < r.max_excl_y; y++) {
    uint32_t *row = (uint32_t *)(g_canvas + ((size_t)y * g_W + r.min_incl_x) * 4);
    for (uint32_t x = 0; x < r.max_excl_x - r.min_incl_x; x++) row[x] = v;
  }
}

/* Copies rectangle r from one canvas-sized buffer to the other. */
static void copy_rect(uint8_t *dst, const uint8_t *src, wuffs_base__rect_ie_u32 r) {
  for (uint32_t y = r.min_incl_y; y < r.max_excl_y; y++) {
    size_t off = ((size_t)y * g_W + r.min_incl_x) * 4;
    memcpy(dst + off, src + off, (size_t)(r.max_excl_x - r.min_incl_x) * 4);
  }
}

/* Decodes and composites every frame of f; returns NULL or wuffs' error message. */
static const char *decode_file(const buf_t *f, int is_gif) {
  wuffs_base__status st;
  wuffs_base__image_decoder *dec;
  if (is_gif) {
    st = wuffs_gif__decoder__initialize(&g_dec.gif, sizeof g_dec.gif, WUFFS_VERSION, WUFFS_INITIALIZE__LEAVE_INTERNAL_BUFFERS_UNINITIALIZED);
    dec = wuffs_gif__decoder__upcast_as__wuffs_base__image_decoder(&g_dec.gif);
  } else {
    st = wuffs_png__decoder__initialize(&g_dec.png, sizeof g_dec.png, WUFFS_VERSION, WUFFS_INITIALIZE__LEAVE_INTERNAL_BUFFERS_UNINITIALIZED);
    dec = wuffs_png__decoder__upcast_as__wuffs_base__image_decoder(&g_dec.png);
  }
  if (st.repr) return wuffs_base__status__message(&st);
  if (g_ignore_checksum && !is_gif) { /* GIF has no checksums: wuffs' GIF decoder rejects the quirk */
    st = wuffs_base__image_decoder__set_quirk(dec, WUFFS_BASE__QUIRK_IGNORE_CHECKSUM, 1);
    if (st.repr) return wuffs_base__status__message(&st);
  }

  /* The whole file is in memory: the reader is closed, so no call ever asks for more. */
  wuffs_base__io_buffer src = wuffs_base__ptr_u8__reader(f->p, f->n, true);
  wuffs_base__image_config ic;
  st = wuffs_base__image_decoder__decode_image_config(dec, &ic, &src);
  if (st.repr) return wuffs_base__status__message(&st);
  g_W = wuffs_base__pixel_config__width(&ic.pixcfg); g_H = wuffs_base__pixel_config__height(&ic.pixcfg);
  uint64_t work = wuffs_base__image_decoder__workbuf_len(dec).max_incl;
  if (work > SIZE_MAX || ensure((size_t)g_W * g_H * 4, (size_t)work)) return "out of memory";

  /* The canvas is the pixel buffer decode_frame writes into. */
  wuffs_base__pixel_config__set(&ic.pixcfg, g_premultiplied ? WUFFS_BASE__PIXEL_FORMAT__RGBA_PREMUL : WUFFS_BASE__PIXEL_FORMAT__RGBA_NONPREMUL, WUFFS_BASE__PIXEL_SUBSAMPLING__NONE, g_W, g_H);
  wuffs_base__pixel_buffer pb;
  st = wuffs_base__pixel_buffer__set_from_slice(&pb, &ic.pixcfg, wuffs_base__make_slice_u8(g_canvas, (size_t)g_W * g_H * 4));
  if (st.repr) return wuffs_base__status__message(&st);
  wuffs_base__slice_u8 workbuf = wuffs_base__make_slice_u8(g_work, (size_t)work);

  for (;;) {
    wuffs_base__frame_config fc;
    st = wuffs_base__image_decoder__decode_frame_config(dec, &fc, &src);
    if (st.repr == wuffs_base__note__end_of_data) return NULL;
    if (st.repr) return wuffs_base__status__message(&st);
    wuffs_base__rect_ie_u32 r = wuffs_base__frame_config__bounds(&fc);
    wuffs_base__color_u32_argb_premul bg = wuffs_base__frame_config__background_color(&fc);
    uint8_t disposal = wuffs_base__frame_config__disposal(&fc);

    if (wuffs_base__frame_config__index(&fc) == 0)
      fill_rect(wuffs_base__pixel_config__bounds(&ic.pixcfg), bg);
    if (disposal == WUFFS_BASE__ANIMATION_DISPOSAL__RESTORE_PREVIOUS) copy_rect(g_saved, g_canvas, r);

    wuffs_base__pixel_blend blend = wuffs_base__frame_config__overwrite_instead_of_blend(&fc)
                                        ? WUFFS_BASE__PIXEL_BLEND__SRC : WUFFS_BASE__PIXEL_BLEND__SRC_OVER;
    st = wuffs_base__image_decoder__decode_frame(dec, &pb, &src, blend, workbuf, NULL);
    if (st.repr) return wuffs_base__status__message(&st);
    emit(g_canvas);

    if (disposal == WUFFS_BASE__ANIMATION_DISPOSAL__RESTORE_BACKGROUND) fill_rect(r, bg);
    else if (disposal == WUFFS_BASE__ANIMATION_DISPOSAL__RESTORE_PREVIOUS) copy_rect(g_canvas, g_saved, r);
  }
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s FILE [min_seconds] [--premultiplied] [--ignore-checksum] [--dump OUT.rgba] [--compare IN.rgba]\n", argv[0]);
    return 2;
  }
  const char *path = argv[1]; double minsec = 1.0; const char *dump = NULL, *compare = NULL;
  for (int i = 2; i < argc; i++) {
    if (!strcmp(argv[i], "--dump") && i + 1 < argc) dump = argv[++i];
    else if (!strcmp(argv[i], "--compare") && i + 1 < argc) compare = argv[++i];
    else if (!strcmp(argv[i], "--premultiplied")) g_premultiplied = 1;
    else if (!strcmp(argv[i], "--ignore-checksum")) g_ignore_checksum = 1;
    else minsec = atof(argv[i]);
  }
  buf_t f;
  if (read_file(path, &f)) return 1;
  if (compare && read_file(compare, &g_other)) return 1;
  int is_gif = f.n >= 6 && !memcmp(f.p, "GIF8", 4);
  int is_png = f.n >= 8 && !memcmp(f.p, "\x89PNG\r\n\x1a\n", 8);
  if (!is_gif && !is_png) { printf("SKIP wuffs %s: not a GIF or PNG\n", path); return 0; }

  /* verification pass (untimed): sizes the buffers, crc of all composited frames, optional dump */
  wuffs_base__status st = wuffs_crc32__ieee_hasher__initialize(&g_hasher, sizeof g_hasher, WUFFS_VERSION, WUFFS_INITIALIZE__DEFAULT_OPTIONS);
  if (st.repr) { fprintf(stderr, "%s\n", wuffs_base__status__message(&st)); return 1; }
  g_verify = 1; g_crc = 0; g_frames = 0;
  if (dump) g_dump = fopen(dump, "wb");
  const char *err = decode_file(&f, is_gif);
  if (err) { fprintf(stderr, "%s: wuffs: %s\n", path, err); return 1; }
  if (g_dump) { fclose(g_dump); g_dump = NULL; }
  long frames = g_frames; uint32_t crc = g_crc; g_verify = 0;
  if (compare) {
    int same_length = !g_other_short && g_other.n == (size_t)frames * g_W * g_H * 4;
    printf("COMPARE %ld %u %zu\n", same_length ? frames : -1L, g_max_diff, g_diff_bytes);
  }

  double ts[5];
  for (int r = 0; r < 5; r++) {
    long it = 0; double t0 = now(), t;
    do { decode_file(&f, is_gif); it++; t = now(); } while (t - t0 < minsec / 5 || it < 1);
    ts[r] = (t - t0) / it;
  }
  for (int i = 0; i < 5; i++) for (int j = i + 1; j < 5; j++) if (ts[j] < ts[i]) { double x = ts[i]; ts[i] = ts[j]; ts[j] = x; }
  double med = ts[2];
  const char *base = strrchr(path, '/'); base = base ? base + 1 : path;
  printf("RESULT wuffs %s %ld %u %u %.4f %.2f %08x\n", base, frames, g_W, g_H, med * 1e3,
         (double)frames * g_W * g_H / med / 1e6, crc);
  return 0;
}
