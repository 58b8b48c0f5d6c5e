#!/usr/bin/env bash
# Bare inflate of every zlib stream (IDAT or fdAT frame) of the given PNG/APNG files with the two
# inflate engines Debian ships that could serve the decoder: libdeflate (what AnimationCodec
# links) and ISA-L's igzip (libisal-dev), both checking the Adler-32. Output MB/s, best of 30
# passes over each file's streams, one thread.
#
#   scripts/inflate-engines.sh [FILE ...]        (default: corpus-bench/*.png, from make bench-corpus)
#
# Needs gcc, python3, libdeflate-dev and libisal-dev (apt-get install libisal-dev); builds into
# .build-peers/inflate-engines/ (git-ignored).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out="$root/.build-peers/inflate-engines"
mkdir -p "$out"
[ -f /usr/include/isa-l/igzip_lib.h ] || { echo "inflate-engines: install libisal-dev" >&2; exit 1; }
cat > "$out/engines.c" <<'C'
#include <libdeflate.h>
#include <isa-l/igzip_lib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }

/* The input: records of (compressed length, inflated length, zlib stream). */
int main(int argc, char **argv) {
    FILE *file = fopen(argv[1], "rb");
    if (!file) return 1;
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    rewind(file);
    uint8_t *data = malloc(size);
    if (fread(data, 1, size, file) != (size_t)size) return 1;
    uint8_t *output = malloc(64 << 20);
    struct libdeflate_decompressor *decompressor = libdeflate_alloc_decompressor();
    double best[2] = {1e9, 1e9};
    long total = 0;
    for (int pass = 0; pass < 30; pass++) {
        for (int engine = 0; engine < 2; engine++) {
            double start = now();
            total = 0;
            for (long at = 0; at < size;) {
                uint32_t packed, inflated;
                memcpy(&packed, data + at, 4);
                memcpy(&inflated, data + at + 4, 4);
                at += 8;
                if (engine == 0) {
                    size_t got;
                    if (libdeflate_zlib_decompress(decompressor, data + at, packed, output, inflated, &got)) return 2;
                } else {
                    struct inflate_state state;
                    isal_inflate_init(&state);
                    state.crc_flag = ISAL_ZLIB;
                    state.next_in = data + at;
                    state.avail_in = packed;
                    state.next_out = output;
                    state.avail_out = inflated;
                    if (isal_inflate_stateless(&state) != ISAL_DECOMP_OK) return 3;
                }
                total += inflated;
                at += packed;
            }
            double seconds = now() - start;
            if (seconds < best[engine]) best[engine] = seconds;
        }
    }
    printf("%.0f %.0f\n", total / best[0] / 1e6, total / best[1] / 1e6);
    return 0;
}
C
gcc -O2 "$out/engines.c" -o "$out/engines" -ldeflate -lisal
files=("$@")
[ ${#files[@]} -gt 0 ] || files=("$root"/corpus-bench/*.png)
echo "| file | libdeflate MB/s | ISA-L igzip MB/s | igzip / libdeflate |"
echo "|---|---:|---:|---:|"
for png in "${files[@]}"; do
  python3 - "$png" "$out/streams.bin" <<'PY'
import struct, sys, zlib
data = open(sys.argv[1], "rb").read()
streams, current, at = [], [], 8
while at < len(data):
    length, kind = struct.unpack(">I4s", data[at:at + 8])
    body = data[at + 8:at + 8 + length]
    at += 12 + length
    if kind == b"fcTL" and current:
        streams.append(b"".join(current)); current = []
    elif kind == b"IDAT":
        current.append(body)
    elif kind == b"fdAT":
        current.append(body[4:])
if current:
    streams.append(b"".join(current))
with open(sys.argv[2], "wb") as out:
    for stream in streams:
        out.write(struct.pack("<II", len(stream), len(zlib.decompress(stream))) + stream)
PY
  read -r ours theirs < <("$out/engines" "$out/streams.bin")
  python3 -c "import sys; a, b = int(sys.argv[2]), int(sys.argv[3]); print(f'| {sys.argv[1]} | {a:,} | {b:,} | {b / a:.2f}x |')" \
    "$(basename "$png")" "$ours" "$theirs"
done
