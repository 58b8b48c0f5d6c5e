#ifndef STICKER_LOTTIE_H
#define STICKER_LOTTIE_H

#include <stddef.h>
#include <stdint.h>
#include <rlottie_capi.h>

// rlottie (Debian's librlottie0-1) loaded on first use with dlopen: it exists as a shared C++
// library only, and a process that never reads a Lottie file should not pay for loading it
// (and libstdc++) at start-up. These wrap the parts of its C interface the decoder uses.

/// Loads rlottie once (thread-safe); 1 when it is there, 0 when it is not installed.
int sticker_lottie_load(void);

/// The name of the library that was tried, for an error message.
const char *sticker_lottie_library_name(void);

/// `lottie_animation_from_data` with an empty key and resource path, rlottie's model cache
/// turned off (it hands back a cached document for the same key, so two files loaded with the
/// same, or an empty, key would share the first one's animation). NULL when rlottie refuses it.
Lottie_Animation *sticker_lottie_from_data(const char *json);

/// `lottie_animation_destroy`.
void sticker_lottie_destroy(Lottie_Animation *animation);

/// `lottie_animation_get_totalframe`.
size_t sticker_lottie_total_frames(const Lottie_Animation *animation);

/// `lottie_animation_get_framerate`.
double sticker_lottie_frame_rate(const Lottie_Animation *animation);

/// `lottie_animation_render`: frame `frame` into premultiplied ARGB32 words.
void sticker_lottie_render(Lottie_Animation *animation, size_t frame, uint32_t *buffer,
                           size_t width, size_t height, size_t bytes_per_line);

#endif
