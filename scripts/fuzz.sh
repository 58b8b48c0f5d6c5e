#!/usr/bin/env bash
# Builds and runs one libFuzzer target over the decoder, under AddressSanitizer.
#   scripts/fuzz.sh png|apng|gif|jpeg|webp|contents|pack SECONDS
#   scripts/fuzz.sh --build TARGET      (only builds it)
# png/apng/gif/jpeg/webp fuzz the decoder; contents fuzzes the .xcstickers Contents.json reader and the
# validator; pack fuzzes a whole pack: load, validate, render a snapshot and an animated APNG.
# Seeds come from corpus/, Tests/FuzzRegressions and the conformance suites where present (found as
# the tests find them: $STICKERKIT_CONFORMANCE, ../shared/conformance or .conformance, which
# scripts/get-conformance.sh fills; missing seeds are skipped); the corpus grows in
# .build-fuzz/corpus-TARGET, crashes land in .build-fuzz/crashes-TARGET (commit each as a
# regression test). A binary newer than every source it is built from is reused (png and apng
# share one). Different targets may build at once, except contents and pack (shared modules).
# STICKERKIT_FUZZ_FLAGS holds extra libFuzzer flags, put after (so over) the defaults below.
set -euo pipefail
cd "$(dirname "$0")/.."
shopt -s nullglob
usage="usage: scripts/fuzz.sh png|apng|gif|jpeg|webp|contents|pack SECONDS, or scripts/fuzz.sh --build TARGET"
build_only=false
if [ "${1:-}" = --build ]; then build_only=true; shift; fi
target="${1:?$usage}"
seconds="${2:-60}"
if [ -n "${STICKERKIT_CONFORMANCE:-}" ]; then conf="$STICKERKIT_CONFORMANCE"
elif [ -d ../shared/conformance ]; then conf=../shared/conformance
else conf=.conformance; fi
out=".build-fuzz"
regressions=Tests/FuzzRegressions

case "$target" in
  png|apng) define=FUZZ_PNG; binary="$out/fuzz-png"; obj="$out/obj-png" ;;
  gif) define=FUZZ_GIF; binary="$out/fuzz-gif"; obj="$out/obj-gif" ;;
  jpeg) define=FUZZ_JPEG; binary="$out/fuzz-jpeg"; obj="$out/obj-jpeg" ;;
  webp) define=FUZZ_WEBP; binary="$out/fuzz-webp"; obj="$out/obj-webp" ;;
  # contents and pack share one set of modules.
  contents) define=FUZZ_CONTENTS; binary="$out/fuzz-contents"; obj="$out/obj-pack-modules" ;;
  pack) define=FUZZ_PACK; binary="$out/fuzz-pack"; obj="$out/obj-pack-modules" ;;
  *) echo "unknown target $target" >&2; exit 2 ;;
esac
# The seeds are gathered afresh on every run.
rm -rf "$out/seeds-$target"
mkdir -p "$out/corpus-$target" "$out/crashes-$target" "$out/seeds-$target" "$obj"

# Whether $1 exists and is newer than every source it is made from.
fresh() {
  local sources=(Sources/AnimationCodec Sources/CJPEG Fuzz scripts/fuzz.sh)
  case "$target" in contents|pack) sources+=(Sources/StickerPack Sources/StickerRenderer) ;; esac
  [ -e "$1" ] && [ -z "$(find "${sources[@]}" -newer "$1" -type f | head -1)" ]
}

# Builds $binary unless it is fresh.
build() {
  if fresh "$binary"; then return; fi
  local flags=(-O -g -parse-as-library -sanitize=fuzzer,address -I Sources/CZlib -I Sources/CDeflate -I Sources/CLibJPEG -I Sources/CWebP -I Fuzz/modules/CJPEG -I "$obj")
  clang -c -O1 -g -fsanitize=fuzzer-no-link,address -I Sources/CJPEG/include Sources/CJPEG/sticker_jpeg.c -o "$obj/sticker_jpeg.o"
  case "$target" in
    contents|pack)
      # The pack layers import AnimationCodec and StickerPack as modules: build each as one
      # (StickerRenderer.o, the last, tells whether they are fresh).
      if ! fresh "$obj/StickerRenderer.o"; then
        for module in AnimationCodec StickerPack StickerRenderer; do
          swiftc "${flags[@]}" -emit-module -emit-object -wmo -module-name "$module" -emit-module-path "$obj/$module.swiftmodule" \
            $(find "Sources/$module" -name '*.swift') -o "$obj/$module.o"
        done
      fi
      swiftc "${flags[@]}" -D "$define" -module-name FuzzPack Fuzz/PackFuzzer.swift \
        "$obj/AnimationCodec.o" "$obj/StickerPack.o" "$obj/StickerRenderer.o" "$obj/sticker_jpeg.o" \
        -lz -ldeflate -ljpeg -lwebpdemux -lwebp -o "$binary.partial" ;;
    *)
      swiftc "${flags[@]}" -D "$define" -module-name FuzzDecode \
        $(find Sources/AnimationCodec -name '*.swift') Fuzz/DecodeFuzzer.swift "$obj/sticker_jpeg.o" \
        -lz -ldeflate -ljpeg -lwebpdemux -lwebp -o "$binary.partial" ;;
  esac
  # Renamed only once whole, so an interrupted build is never taken for a fresh one.
  mv "$binary.partial" "$binary"
}
build
if $build_only; then exit 0; fi

case "$target" in
  png) seeds=($conf/pngsuite/png/*.png corpus/sample-pack/*.png $regressions/*.png) ;;
  apng) seeds=($conf/apng-philip-taylor/*.png $conf/stickers-blobfox/*.png corpus/sample-pack/*.png $regressions/*.png) ;;
  gif) seeds=($conf/*/*.gif $conf/*/*/*.gif corpus/sample-pack/*.gif $regressions/*.gif) ;;
  jpeg) seeds=(corpus/sample-pack/*.jpg $regressions/*.jpg) ;;
  webp)
    # Seeds: libwebp's own encoders' stills and animations (lossy, lossless, alpha).
    python3 Tests/Scripts/make_webp_corpus.py "$out/webp-seeds" >/dev/null
    seeds=("$out"/webp-seeds/*.webp $regressions/*.webp) ;;
  contents) seeds=() ;;
  pack) seeds=(corpus/sample-pack/* $conf/gif-peterdn/*.gif $conf/apng-philip-taylor/*.png) ;;
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

# shellcheck disable=SC2086 # the extra flags are words
"$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=200000 \
  -artifact_prefix="$out/crashes-$target/" ${STICKERKIT_FUZZ_FLAGS:-} "$out/corpus-$target" "$out/seeds-$target"
