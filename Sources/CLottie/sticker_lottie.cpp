#include "sticker_lottie.h"
#include <rlottie.h>

// The cache setting is in rlottie's C++ interface only.
void sticker_lottie_disable_model_cache(void) {
    rlottie::configureModelCacheSize(0);
}
