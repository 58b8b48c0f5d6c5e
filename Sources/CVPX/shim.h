#include <vpx/vpx_decoder.h>
#include <vpx/vp8dx.h>

/// Opens a single-threaded VP8 (`vp9` = 0) or VP9 decoder: `vpx_codec_dec_init` is a macro
/// Swift cannot call.
static inline vpx_codec_err_t sticker_vpx_open(vpx_codec_ctx_t *context, int vp9) {
    vpx_codec_dec_cfg_t config = { .threads = 1, .w = 0, .h = 0 };
    return vpx_codec_dec_init(context, vp9 ? vpx_codec_vp9_dx() : vpx_codec_vp8_dx(), &config, 0);
}
