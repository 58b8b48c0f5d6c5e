#!/usr/bin/env bash
# Builds and runs one libFuzzer target over the decoder, under AddressSanitizer.
#   scripts/fuzz.sh png|apng|gif|jpeg|webp|webm|lottie|contents|pack|transcript|xcode SECONDS
#   scripts/fuzz.sh --build TARGET      (only builds it)
# png/apng/gif/jpeg/webp/webm/lottie fuzz the decoder; contents fuzzes the .xcstickers Contents.json
# reader and the validator; pack fuzzes a whole pack: load, validate, render a snapshot and an
# animated APNG; xcode fuzzes a sticker pack app's project.pbxproj: load the project folder as a
# pack and validate it with the App Store rules; transcript fuzzes a conversation script: parse, lay out and draw it (text through
# FreeType and HarfBuzz, which CText loads with dlopen). Every target links libvpx and the CJPEG and CLottie shims, as the decoder does
# (CLottie loads rlottie with dlopen when a Lottie file is first read).
# Seeds come from corpus/, Tests/FuzzRegressions and the conformance suites where present (found as
# the tests find them: $STICKERKIT_CONFORMANCE, ../shared/conformance or .conformance, which
# scripts/get-conformance.sh fills; missing seeds are skipped); webm's seeds are made by ffmpeg
# (when installed) and lottie's written out by this script, into .build-fuzz/seeds-TARGET on each
# run, never committed; the corpus grows in
# .build-fuzz/corpus-TARGET, crashes land in .build-fuzz/crashes-TARGET (commit each as a
# regression test). A binary newer than every source it is built from is reused (png and apng
# share one). Different targets may build at once, except contents and pack (shared modules).
# STICKERKIT_FUZZ_FLAGS holds extra libFuzzer flags, put after (so over) the defaults below.
set -euo pipefail
cd "$(dirname "$0")/.."
shopt -s nullglob
usage="usage: scripts/fuzz.sh png|apng|gif|jpeg|webp|webm|lottie|contents|pack|transcript|xcode SECONDS, or scripts/fuzz.sh --build TARGET"
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
  webm) define=FUZZ_WEBM; binary="$out/fuzz-webm"; obj="$out/obj-webm" ;;
  lottie) define=FUZZ_LOTTIE; binary="$out/fuzz-lottie"; obj="$out/obj-lottie" ;;
  # contents and pack share one set of modules.
  contents) define=FUZZ_CONTENTS; binary="$out/fuzz-contents"; obj="$out/obj-pack-modules" ;;
  pack) define=FUZZ_PACK; binary="$out/fuzz-pack"; obj="$out/obj-pack-modules" ;;
  transcript) define=FUZZ_TRANSCRIPT; binary="$out/fuzz-transcript"; obj="$out/obj-pack-modules" ;;
  xcode) define=FUZZ_XCODE; binary="$out/fuzz-xcode"; obj="$out/obj-pack-modules" ;;
  *) echo "unknown target $target" >&2; exit 2 ;;
esac
# The seeds are gathered afresh on every run.
rm -rf "$out/seeds-$target"
mkdir -p "$out/corpus-$target" "$out/crashes-$target" "$out/seeds-$target" "$obj"

# Whether $1 exists and is newer than every source it is made from.
fresh() {
  local sources=(Sources/AnimationCodec Sources/CJPEG Sources/CLottie Sources/CVPX Fuzz scripts/fuzz.sh)
  case "$target" in contents|pack|transcript|xcode) sources+=(Sources/StickerPixels Sources/StickerPack Sources/StickerRenderer Sources/StickerTranscript Sources/CText Sources/CTerminal) ;; esac
  [ -e "$1" ] && [ -z "$(find "${sources[@]}" -newer "$1" -type f | head -1)" ]
}

# Builds $binary unless it is fresh.
build() {
  if fresh "$binary"; then return; fi
  local flags=(-O -g -parse-as-library -package-name StickerKit -sanitize=fuzzer,address -I Sources/CZlib -I Sources/CDeflate -I Sources/CLibJPEG
    -I Sources/CWebP -I Sources/CVPX -I Fuzz/modules/CJPEG -I Fuzz/modules/CLottie -I Fuzz/modules/CText -I Fuzz/modules/CTerminal -I "$obj")
  local libraries=(-lz -ldeflate -ljpeg -lwebpdemux -lwebp -lvpx)
  clang -c -O1 -g -fsanitize=fuzzer-no-link,address -I Sources/CJPEG/include Sources/CJPEG/sticker_jpeg.c -o "$obj/sticker_jpeg.o"
  clang -c -O1 -g -fsanitize=fuzzer-no-link,address -I Sources/CLottie/include Sources/CLottie/sticker_lottie.c -o "$obj/sticker_lottie.o"
  clang -c -O1 -g -fsanitize=fuzzer-no-link,address -I Sources/CText/include Sources/CText/sticker_text.c -o "$obj/sticker_text.o"
  clang -c -O1 -g -fsanitize=fuzzer-no-link,address -I Sources/CTerminal/include Sources/CTerminal/sticker_terminal.c -o "$obj/sticker_terminal.o"
  case "$target" in
    contents|pack|transcript|xcode)
      # The pack layers import the modules below them: build each as one (StickerTranscript.o,
      # the last, tells whether they are fresh).
      if ! fresh "$obj/StickerTranscript.o"; then
        for module in AnimationCodec StickerPixels StickerPack StickerRenderer StickerTranscript; do
          swiftc "${flags[@]}" -emit-module -emit-object -wmo -module-name "$module" -emit-module-path "$obj/$module.swiftmodule" \
            $(find "Sources/$module" -name '*.swift') -o "$obj/$module.o"
        done
      fi
      swiftc "${flags[@]}" -D "$define" -module-name FuzzPack Fuzz/PackFuzzer.swift \
        "$obj/AnimationCodec.o" "$obj/StickerPixels.o" "$obj/StickerPack.o" "$obj/StickerRenderer.o" "$obj/StickerTranscript.o" \
        "$obj/sticker_jpeg.o" "$obj/sticker_lottie.o" \
        "$obj/sticker_text.o" "$obj/sticker_terminal.o" "${libraries[@]}" -o "$binary.partial" ;;
    *)
      swiftc "${flags[@]}" -D "$define" -module-name FuzzDecode \
        $(find Sources/AnimationCodec -name '*.swift') Fuzz/DecodeFuzzer.swift "$obj/sticker_jpeg.o" "$obj/sticker_lottie.o" \
        "${libraries[@]}" -o "$binary.partial" ;;
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
  webm)
    # Seeds: a few tiny ffmpeg encodings (VP8 and VP9, with and without alpha, one with a
    # keyframe every three frames), written straight into the seeds folder.
    if command -v ffmpeg >/dev/null; then
      encode() {
        local name="$1"; shift
        ffmpeg -v error -y -f lavfi -i "testsrc2=size=32x24:rate=10:duration=0.5" "$@" -fflags +bitexact \
          "$out/seeds-$target/$name.webm" || echo "fuzz.sh: ffmpeg could not make the $name seed" >&2
      }
      alpha=format=rgba,colorchannelmixer=aa=0.5,format=yuva420p
      encode vp9-alpha -vf "$alpha" -c:v libvpx-vp9 -pix_fmt yuva420p
      encode vp9 -c:v libvpx-vp9 -pix_fmt yuv420p -g 3
      encode vp8-alpha -vf "$alpha" -c:v libvpx -pix_fmt yuva420p -auto-alt-ref 0
      encode vp8 -c:v libvpx -pix_fmt yuv420p
    else
      echo "fuzz.sh: no ffmpeg: webm starts from $out/corpus-webm and $regressions only" >&2
    fi
    seeds=($regressions/*.webm) ;;
  lottie)
    # Seeds: two small Lottie documents written here (a square moving across; a stroked and
    # filled ellipse in a group, turning and fading), each also gzipped as a .tgs. rlottie
    # animates a keyframe only with its easing handles ("i", "o").
    cat > "$out/seeds-$target/square.json" <<'JSON'
{"v":"5.5.2","fr":30,"ip":0,"op":30,"w":64,"h":64,"layers":[{"ty":4,"ind":1,"ip":0,"op":30,"st":0,"ks":{"o":{"a":0,"k":100},"r":{"a":0,"k":0},"p":{"a":1,"k":[{"t":0,"s":[10,32,0],"e":[54,32,0],"i":{"x":[0.5],"y":[0.5]},"o":{"x":[0.5],"y":[0.5]}},{"t":30}]},"a":{"a":0,"k":[0,0,0]},"s":{"a":0,"k":[100,100,100]}},"shapes":[{"ty":"rc","p":{"a":0,"k":[0,0]},"s":{"a":0,"k":[16,16]},"r":{"a":0,"k":0}},{"ty":"fl","c":{"a":0,"k":[1,0,0,1]},"o":{"a":0,"k":100}}]}]}
JSON
    cat > "$out/seeds-$target/ellipse.json" <<'JSON'
{"v":"5.5.2","fr":25,"ip":0,"op":20,"w":48,"h":40,"layers":[{"ty":4,"ind":1,"ip":0,"op":20,"st":0,"ks":{"o":{"a":1,"k":[{"t":0,"s":[100],"e":[20],"i":{"x":[0.5],"y":[0.5]},"o":{"x":[0.5],"y":[0.5]}},{"t":20}]},"r":{"a":1,"k":[{"t":0,"s":[0],"e":[180],"i":{"x":[0.5],"y":[0.5]},"o":{"x":[0.5],"y":[0.5]}},{"t":20}]},"p":{"a":0,"k":[24,20,0]},"a":{"a":0,"k":[0,0,0]},"s":{"a":0,"k":[100,100,100]}},"shapes":[{"ty":"gr","it":[{"ty":"el","p":{"a":0,"k":[0,0]},"s":{"a":0,"k":[30,16]}},{"ty":"st","c":{"a":0,"k":[0,0.4,1,1]},"o":{"a":0,"k":100},"w":{"a":0,"k":3},"lc":2,"lj":2},{"ty":"fl","c":{"a":0,"k":[1,0.8,0,1]},"o":{"a":0,"k":60}},{"ty":"tr","p":{"a":0,"k":[0,0]},"a":{"a":0,"k":[0,0]},"s":{"a":0,"k":[100,100]},"r":{"a":0,"k":0},"o":{"a":0,"k":100}}]}]}]}
JSON
    for f in "$out/seeds-$target"/*.json; do gzip -9nc "$f" > "${f%.json}.tgs"; done
    seeds=($regressions/*.json $regressions/*.tgs) ;;
  contents) seeds=() ;;
  pack) seeds=(corpus/sample-pack/* $conf/gif-peterdn/*.gif $conf/apng-philip-taylor/*.png) ;;
  transcript) seeds=(corpus/conversation.txt $regressions/*.txt) ;;
  # Seeds: the fuzzer writes a good project.pbxproj itself (LLVMFuzzerInitialize, below).
  xcode) seeds=($regressions/*.pbxproj) ;;
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

# webm and lottie decode under limits (Fuzz/DecodeFuzzer.swift) that keep every single allocation
# of a valid input, the decoder's, libvpx's or rlottie's, far below 16 MiB: one that size or larger
# is memory no limit bounded (a frame libvpx sized from a header the checks did not see), a finding.
target_flags=()
case "$target" in webm|lottie) target_flags=(-malloc_limit_mb=16) ;; esac
# shellcheck disable=SC2086 # the extra flags are words
STICKERKIT_FUZZ_SEEDS="$out/seeds-$target" "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=200000 "${target_flags[@]}" \
  -artifact_prefix="$out/crashes-$target/" ${STICKERKIT_FUZZ_FLAGS:-} "$out/corpus-$target" "$out/seeds-$target"
