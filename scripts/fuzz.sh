#!/usr/bin/env bash
# Builds and runs one libFuzzer target over the decoder, under AddressSanitizer.
#   scripts/fuzz.sh png|apng|gif|jpeg|webp|contents|pack SECONDS
# png/apng/gif/jpeg/webp fuzz the decoder; contents fuzzes the .xcstickers Contents.json reader and the
# validator; pack fuzzes a whole pack: load, validate, render a snapshot and an animated APNG.
# Seeds come from corpus/ and the conformance suites where present (found as the tests find them:
# $STICKERKIT_CONFORMANCE, ../shared/conformance or .conformance, which scripts/get-conformance.sh
# fills; missing seeds are skipped); the corpus grows in .build-fuzz/corpus-TARGET,
# crashes land in .build-fuzz/crashes-TARGET (commit each as a regression test).
set -euo pipefail
cd "$(dirname "$0")/.."
shopt -s nullglob
if [ -n "${STICKERKIT_CONFORMANCE:-}" ]; then conf="$STICKERKIT_CONFORMANCE"
elif [ -d ../shared/conformance ]; then conf=../shared/conformance
else conf=.conformance; fi
target="${1:?usage: scripts/fuzz.sh png|apng|gif|jpeg|webp|contents|pack SECONDS}"
seconds="${2:-60}"
out=".build-fuzz"
mkdir -p "$out/corpus-$target" "$out/crashes-$target" "$out/seeds-$target" "$out/obj"

case "$target" in
  png) define=FUZZ_PNG; seeds=($conf/pngsuite/png/*.png) ;;
  apng) define=FUZZ_PNG; seeds=($conf/apng-philip-taylor/*.png $conf/stickers-blobfox/*.png corpus/sample-pack/*.png) ;;
  gif) define=FUZZ_GIF; seeds=($conf/*/*.gif $conf/*/*/*.gif corpus/sample-pack/*.gif) ;;
  jpeg) define=FUZZ_JPEG; seeds=(corpus/sample-pack/*.jpg) ;;
  webp)
    # Seeds: libwebp's own encoders' stills and animations (lossy, lossless, alpha).
    define=FUZZ_WEBP
    python3 Tests/Scripts/make_webp_corpus.py "$out/webp-seeds" >/dev/null
    seeds=("$out"/webp-seeds/*.webp) ;;
  contents) define=FUZZ_CONTENTS; seeds=() ;;
  pack) define=FUZZ_PACK; seeds=(corpus/sample-pack/* $conf/gif-peterdn/*.gif $conf/apng-philip-taylor/*.png) ;;
  *) echo "unknown target $target" >&2; exit 2 ;;
esac
if [ "$target" = contents ]; then
  # Seeds: the sample catalog's Contents.json files, each behind a selector byte (0 pack, 1 sticker, 2 sequence).
  i=0
  for f in corpus/Sample.xcstickers/*/Contents.json corpus/Sample.xcstickers/*/*.sticker/Contents.json corpus/Sample.xcstickers/*/*.stickersequence/Contents.json; do
    case "$f" in *.sticker/*) sel='\001' ;; *.stickersequence/*) sel='\002' ;; *) sel='\000' ;; esac
    { printf "$sel"; cat "$f"; } > "$out/seeds-$target/seed-$i.json"; i=$((i + 1))
  done
else
  cp -f "${seeds[@]}" "$out/seeds-$target/" 2>/dev/null || true
fi

binary="$out/fuzz-$target"
flags=(-O -g -parse-as-library -sanitize=fuzzer,address -I Sources/CZlib -I Sources/CDeflate -I Sources/CLibJPEG -I Sources/CWebP -I Fuzz/modules/CJPEG -I "$out/obj")
clang -c -O1 -g -fsanitize=fuzzer-no-link,address -I Sources/CJPEG/include Sources/CJPEG/sticker_jpeg.c -o "$out/obj/sticker_jpeg.o"
case "$target" in
  contents|pack)
    # The pack layers import AnimationCodec and StickerPack as modules: build each as one.
    for module in AnimationCodec StickerPack StickerRenderer; do
      swiftc "${flags[@]}" -emit-module -emit-object -wmo -module-name "$module" -emit-module-path "$out/obj/$module.swiftmodule" \
        $(find "Sources/$module" -name '*.swift') -o "$out/obj/$module.o"
    done
    swiftc "${flags[@]}" -D "$define" -module-name FuzzPack Fuzz/PackFuzzer.swift \
      "$out/obj/AnimationCodec.o" "$out/obj/StickerPack.o" "$out/obj/StickerRenderer.o" "$out/obj/sticker_jpeg.o" \
      -lz -ldeflate -ljpeg -lwebpdemux -lwebp -o "$binary" ;;
  *)
    swiftc "${flags[@]}" -D "$define" -module-name FuzzDecode \
      $(find Sources/AnimationCodec -name '*.swift') Fuzz/DecodeFuzzer.swift "$out/obj/sticker_jpeg.o" \
      -lz -ldeflate -ljpeg -lwebpdemux -lwebp -o "$binary" ;;
esac

"$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=200000 \
  -artifact_prefix="$out/crashes-$target/" "$out/corpus-$target" "$out/seeds-$target"
