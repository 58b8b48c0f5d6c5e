#include "sticker_lottie.h"

#include <dlfcn.h>
#include <pthread.h>

// Debian's SONAME for rlottie 0.1, then the development symlink.
static const char *const library_names[] = { "librlottie.so.0-1", "librlottie.so" };

static struct {
    Lottie_Animation *(*from_data)(const char *, const char *, const char *);
    void (*destroy)(Lottie_Animation *);
    size_t (*total_frames)(const Lottie_Animation *);
    double (*frame_rate)(const Lottie_Animation *);
    void (*render)(Lottie_Animation *, size_t, uint32_t *, size_t, size_t, size_t);
    int loaded;
} rlottie;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = NULL;
    for (size_t i = 0; i < sizeof library_names / sizeof library_names[0] && !library; i++) {
        library = dlopen(library_names[i], RTLD_NOW | RTLD_LOCAL);
    }
    if (!library) return;
    rlottie.from_data = (Lottie_Animation *(*)(const char *, const char *, const char *))dlsym(library, "lottie_animation_from_data");
    rlottie.destroy = (void (*)(Lottie_Animation *))dlsym(library, "lottie_animation_destroy");
    rlottie.total_frames = (size_t (*)(const Lottie_Animation *))dlsym(library, "lottie_animation_get_totalframe");
    rlottie.frame_rate = (double (*)(const Lottie_Animation *))dlsym(library, "lottie_animation_get_framerate");
    rlottie.render = (void (*)(Lottie_Animation *, size_t, uint32_t *, size_t, size_t, size_t))dlsym(library, "lottie_animation_render");
    // rlottie::configureModelCacheSize(size_t), in its C++ interface only: the Itanium ABI's
    // name for it. Without it the cache stays on, and every document must have its own key.
    void (*configure_cache)(size_t) = (void (*)(size_t))dlsym(library, "_ZN7rlottie23configureModelCacheSizeEm");
    if (!configure_cache) return;
    configure_cache(0);
    rlottie.loaded = rlottie.from_data && rlottie.destroy && rlottie.total_frames && rlottie.frame_rate && rlottie.render;
}

int sticker_lottie_load(void) {
    pthread_once(&load_once, load);
    return rlottie.loaded;
}

const char *sticker_lottie_library_name(void) { return library_names[0]; }

Lottie_Animation *sticker_lottie_from_data(const char *json) {
    return sticker_lottie_load() ? rlottie.from_data(json, "", "") : NULL;
}

void sticker_lottie_destroy(Lottie_Animation *animation) { rlottie.destroy(animation); }

size_t sticker_lottie_total_frames(const Lottie_Animation *animation) { return rlottie.total_frames(animation); }

double sticker_lottie_frame_rate(const Lottie_Animation *animation) { return rlottie.frame_rate(animation); }

void sticker_lottie_render(Lottie_Animation *animation, size_t frame, uint32_t *buffer,
                           size_t width, size_t height, size_t bytes_per_line) {
    rlottie.render(animation, frame, buffer, width, height, bytes_per_line);
}
