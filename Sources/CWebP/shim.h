#include <webp/decode.h>
#include <webp/demux.h>
#include <webp/encode.h>
