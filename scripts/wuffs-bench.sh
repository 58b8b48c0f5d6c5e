#!/usr/bin/env bash
# Compares our decoder with wuffs' GIF and PNG/APNG decoders (google/wuffs 0.4), one thread
# each, file by file, and prints a Markdown table: the wuffs column of the benchmark docs.
#
#   scripts/wuffs-bench.sh WUFFS_DIR [FILE|DIR ...]      (default: corpus-bench/, from make bench-corpus)
#
# WUFFS_DIR is a wuffs checkout you fetch yourself; this script never downloads anything:
#   git clone --depth 1 --branch v0.4.0-alpha.9 https://github.com/google/wuffs .build-peers/wuffs-v0.4
# It needs WUFFS_DIR/release/c/wuffs-v0.4.c (the single-file C release), gcc, python3, and our
# release build (.build/release/stickers: make release-build).
#
# scripts/wuffs_harness.c is built with gcc -O3 -march=native into .build-peers/wuffs/
# (git-ignored), and rebuilt only when it, the wuffs file or the flags change. Folders are searched
# recursively for .png, .apng and .gif files, as stickers bench does. For each file, in turn:
#   wuffs  the harness, twice: every frame decoded and composited into an RGBA8 canvas, straight
#          (RGBA_NONPREMUL) and premultiplied (RGBA_PREMUL, what ours produces), each the
#          median of 5 runs of at least 0.2 s;
#   ours   stickers bench FILE --threads 1 --repeat 100 --json (files[0].megapixelsPerSecond): the
#          median of 10 turns of 10 decodes, about as long in all as one of the harness's runs.
# Both count MP/s as frames x W x H per second. "frames" is each decoder's count of displayed
# frames (they must agree); "largest difference" compares every displayed frame of ours
# (stickers frames FILE --format rgba) with wuffs' premultiplied one, channel by channel. It is
# 1 where a file's frames are drawn once (wuffs premultiplies in 16 bits and rounds down, ours
# to nearest) and grows where partly transparent frames are blended over earlier ones, frame
# after frame: each decoder rounds its canvas to 8 bits every frame, wuffs down, ours to nearest.
set -euo pipefail
# Paths given are relative to where the script is run from; the repository's own, to its root.
root=$(cd "$(dirname "$0")/.." && pwd)

clone="git clone --depth 1 --branch v0.4.0-alpha.9 https://github.com/google/wuffs .build-peers/wuffs-v0.4"
fail() { echo "wuffs-bench: $*" >&2; exit 1; }

[ $# -ge 1 ] || { sed -n '5,10p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ -f "$1/release/c/wuffs-v0.4.c" ] ||
  fail "$1/release/c/wuffs-v0.4.c not found. WUFFS_DIR must be a wuffs 0.4 checkout, e.g.: $clone"
wuffs_dir=$(cd "$1" && pwd); shift
wuffs_c="$wuffs_dir/release/c/wuffs-v0.4.c"
command -v gcc >/dev/null || fail "gcc not found; install it (Debian: apt-get install gcc)."
command -v python3 >/dev/null || fail "python3 not found (it reads stickers bench --json)."
stickers="$root/.build/release/stickers"
[ -x "$stickers" ] || fail "$stickers not found; build it first: make release-build"

# The harness, rebuilt when the harness, the wuffs file or the flags change.
out="$root/.build-peers/wuffs"
harness="$out/wuffs_harness"
flags=(-O3 -march=native -I "$wuffs_dir/release/c")
stamp="$(cat "$root/scripts/wuffs_harness.c" "$wuffs_c" | sha256sum | cut -d' ' -f1) ${flags[*]}"
mkdir -p "$out"
if [ ! -x "$harness" ] || [ "$(cat "$out/stamp" 2>/dev/null)" != "$stamp" ]; then
  echo "building $harness (gcc ${flags[*]})" >&2
  gcc "${flags[@]}" "$root/scripts/wuffs_harness.c" -o "$harness"
  echo "$stamp" > "$out/stamp"
fi

# The files: as given, and the images inside folders (recursively, sorted).
if [ $# -eq 0 ]; then
  [ -d "$root/corpus-bench" ] || fail "corpus-bench/ not found; make it with: make bench-corpus"
  set -- "$root/corpus-bench"
fi
files=()
for path in "$@"; do
  if [ -d "$path" ]; then
    while IFS= read -r file; do files+=("$file"); done < <(
      find "$path" -type f \( -iname '*.png' -o -iname '*.apng' -o -iname '*.gif' \) | LC_ALL=C sort)
  elif [ -f "$path" ]; then
    files+=("$path")
  else
    fail "$path: no such file or folder"
  fi
done
[ ${#files[@]} -gt 0 ] || fail "no .png, .apng or .gif files in: $*"

version=$(sed -n 's/^#define WUFFS_VERSION_STRING "\(.*\)"$/\1/p' "$wuffs_c")
cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
echo "wuffs $version (gcc $(gcc -dumpfullversion) ${flags[*]:0:2}) against stickers $(git -C "$root" describe --always --dirty 2>/dev/null || echo '?'), one thread each, on ${cpu:-an unnamed CPU} ($(nproc) cores)."
echo
echo "| file | frames | wuffs straight MP/s | wuffs premultiplied MP/s | ours MP/s | ours / straight | ours / premultiplied | largest difference |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"

status=0
for file in "${files[@]}"; do
  name=$(basename "$file")
  echo "$name: ours, then wuffs" >&2
  # Ours first: its frames are what wuffs' premultiplied ones are compared with.
  if ! "$stickers" bench "$file" --threads 1 --repeat 100 --json >"$out/ours.json" 2>"$out/ours.err"; then
    reason=$(tail -n 1 "$out/ours.err")
    echo "| $name | - | - | - | error: ${reason//|/\\|} | - | - | - |"; status=1; continue
  fi
  # {"files": [{"megapixelsPerSecond": ..., "result": {"frames": ...}}], ...}
  if ! ours=$(python3 -c '
import json, sys
entry = json.load(open(sys.argv[1]))["files"][0]
print(entry["result"]["frames"], entry["megapixelsPerSecond"])' "$out/ours.json" 2>/dev/null); then
    echo "| $name | - | - | - | error: unreadable stickers bench --json | - | - | - |"; status=1; continue
  fi
  read -r our_frames our_mps <<< "$ours"
  rm -rf "$out/frames"
  if ! "$stickers" frames "$file" --out "$out/frames" --format rgba 2>"$out/ours.err"; then
    reason=$(tail -n 1 "$out/ours.err")
    echo "| $name | - | - | - | error: ${reason//|/\\|} | - | - | - |"; status=1; continue
  fi
  find "$out/frames" -name 'frame-*.rgba' | LC_ALL=C sort | xargs cat >"$out/ours.rgba"
  # COMPARE frames_compared max_difference differing_bytes, then
  # RESULT wuffs file frames W H ms_per_file MP/s crc32
  results=()
  for kind in straight premultiplied; do
    args=("$file")
    [ "$kind" = premultiplied ] && args+=(--premultiplied --compare "$out/ours.rgba")
    if ! result=$("$harness" "${args[@]}" 2>&1); then
      echo "| $name | - | $kind: error: ${result//|/\\|} | - | - | - | - | - |"; status=1; continue 2
    fi
    results+=("$result")
  done
  read -r tag _ _ wuffs_frames _ _ _ straight_mps _ <<< "${results[0]}"
  if [ "$tag" != RESULT ]; then
    echo "| $name | - | ${results[0]//|/\\|} | - | - | - | - | - |"; continue
  fi
  read -r _ compared max_diff _ <<< "$(grep '^COMPARE' <<< "${results[1]}")"
  read -r _ _ _ _ _ _ _ premultiplied_mps _ <<< "$(grep '^RESULT' <<< "${results[1]}")"
  frames=$wuffs_frames difference=$max_diff
  if [ "$our_frames" != "$wuffs_frames" ] || [ "$compared" != "$wuffs_frames" ]; then
    frames="wuffs $wuffs_frames, ours $our_frames"; difference="-"; status=1
  fi
  awk -v n="$name" -v f="$frames" -v s="$straight_mps" -v p="$premultiplied_mps" -v o="$our_mps" -v d="$difference" \
    'BEGIN { printf "| %s | %s | %.1f | %.1f | %.1f | %.2fx | %.2fx | %s |\n", n, f, s, p, o, o / s, o / p, d }'
done
exit $status
