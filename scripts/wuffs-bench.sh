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
#   wuffs  the harness: every frame decoded and composited into the RGBA8 canvas, the median
#          of 5 runs of at least 0.2 s each;
#   ours   stickers bench FILE --threads 1 --repeat 100 --json (files[0].megapixelsPerSecond): the
#          median of 10 turns of 10 decodes, about as long in all as the harness's 5 runs.
# Both count MP/s as frames x W x H per second. The outputs themselves are not compared (ours
# is premultiplied, wuffs' straight); "frames match" compares the frames each decoder shows.
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
echo "| file | frames | wuffs MP/s | ours MP/s | ours / wuffs | frames match |"
echo "| --- | ---: | ---: | ---: | ---: | --- |"

status=0
for file in "${files[@]}"; do
  name=$(basename "$file")
  echo "$name: wuffs, then ours" >&2
  # RESULT wuffs file frames W H ms_per_file MP/s crc32
  if ! result=$("$harness" "$file" 2>&1); then
    echo "| $name | - | error: ${result//|/\\|} | - | - | - |"; status=1; continue
  fi
  read -r tag _ _ wuffs_frames _ _ _ wuffs_mps _ <<< "$result"
  if [ "$tag" != RESULT ]; then
    echo "| $name | - | ${result//|/\\|} | - | - | - |"; continue
  fi
  if ! "$stickers" bench "$file" --threads 1 --repeat 100 --json >"$out/ours.json" 2>"$out/ours.err"; then
    reason=$(tail -n 1 "$out/ours.err")
    printf '| %s | %s | %.1f | error: %s | - | - |\n' "$name" "$wuffs_frames" "$wuffs_mps" "${reason//|/\\|}"
    status=1; continue
  fi
  # {"files": [{"megapixelsPerSecond": ..., "result": {"frames": ...}}], ...}
  if ! ours=$(python3 -c '
import json, sys
entry = json.load(open(sys.argv[1]))["files"][0]
print(entry["result"]["frames"], entry["megapixelsPerSecond"])' "$out/ours.json" 2>/dev/null); then
    printf '| %s | %s | %.1f | error: unreadable stickers bench --json | - | - |\n' "$name" "$wuffs_frames" "$wuffs_mps"
    status=1; continue
  fi
  read -r our_frames our_mps <<< "$ours"
  match="yes"; [ "$our_frames" = "$wuffs_frames" ] || match="no (ours $our_frames)"
  awk -v n="$name" -v f="$wuffs_frames" -v w="$wuffs_mps" -v o="$our_mps" -v m="$match" \
    'BEGIN { printf "| %s | %s | %.1f | %.1f | %.2fx | %s |\n", n, f, w, o, o / w, m }'
done
exit $status
