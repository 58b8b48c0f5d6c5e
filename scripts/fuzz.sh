#!/usr/bin/env bash
# Builds and runs one libFuzzer target over the decoder, under AddressSanitizer.
#   scripts/fuzz.sh png|apng|gif|jpeg SECONDS
# Seeds come from ../shared/conformance and corpus/; the corpus grows in .build-fuzz/corpus-TARGET,
# crashes land in .build-fuzz/crashes-TARGET (commit each as a regression test).
set -euo pipefail
cd "$(dirname "$0")/.."
target="${1:?usage: scripts/fuzz.sh png|apng|gif|jpeg SECONDS}"
seconds="${2:-60}"
out=".build-fuzz"
mkdir -p "$out/corpus-$target" "$out/crashes-$target" "$out/seeds-$target" "$out/obj"

case "$target" in
  png) define=FUZZ_PNG; seeds=(../shared/conformance/pngsuite/png/*.png) ;;
  apng) define=FUZZ_PNG; seeds=(../shared/conformance/apng-philip-taylor/*.png ../shared/conformance/stickers-blobfox/*.png corpus/sample-pack/*.png) ;;
  gif) define=FUZZ_GIF; seeds=(../shared/conformance/*/*.gif ../shared/conformance/*/*/*.gif corpus/sample-pack/*.gif) ;;
  jpeg) define=FUZZ_JPEG; seeds=(corpus/sample-pack/*.jpg) ;;
  *) echo "unknown target $target" >&2; exit 2 ;;
esac
cp -f "${seeds[@]}" "$out/seeds-$target/" 2>/dev/null || true

binary="$out/fuzz-$target"
clang -c -O1 -g -fsanitize=fuzzer-no-link,address -I Sources/CJPEG/include Sources/CJPEG/sticker_jpeg.c -o "$out/obj/sticker_jpeg.o"
swiftc -O -g -parse-as-library -sanitize=fuzzer,address -D "$define" -module-name FuzzDecode \
  -I Sources/CZlib -I Sources/CDeflate -I Sources/CLibJPEG -I Fuzz/modules/CJPEG \
  $(find Sources/AnimationCodec -name '*.swift') Fuzz/DecodeFuzzer.swift "$out/obj/sticker_jpeg.o" \
  -lz -ldeflate -ljpeg -o "$binary"

"$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=200000 \
  -artifact_prefix="$out/crashes-$target/" "$out/corpus-$target" "$out/seeds-$target"
