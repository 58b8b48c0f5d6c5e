#ifndef STICKER_LOTTIE_H
#define STICKER_LOTTIE_H

#include <rlottie_capi.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Turns rlottie's model cache off. rlottie keeps the last parsed documents by the key
/// `lottie_animation_from_data` is given and hands a cached one back for the same key, so two
/// files loaded with the same (or an empty) key would share the first one's animation.
void sticker_lottie_disable_model_cache(void);

#ifdef __cplusplus
}
#endif

#endif
