#!/usr/bin/env bash
# Compares our decoder with wuffs' GIF and PNG/APNG decoders (google/wuffs 0.4), one thread
# each, file by file, and prints a Markdown table: the wuffs column of the benchmark docs.
#
#   scripts/wuffs-bench.sh WUFFS_DIR [FILE|DIR ...]      (default: corpus-bench/, from make bench-corpus)
#
# WUFFS_DIR is a wuffs checkout you fetch yourself; this script never downloads anything:
#   git clone --depth 1 --branch v0.4.0-alpha.9 https://github.com/google/wuffs .build-peers/wuffs-v0.4
# It needs WUFFS_DIR/release/c/wuffs-v0.4.c (the single-file C release), gcc, python3, and our
# release build (.build/release/stickers: make release-build; STICKERS=PATH times another, such
# as the build for this CPU that make release-build TARGET_CPU=native writes to
# .build-cpu-native/release/stickers, on the footing of the harness's -march=native).
#
# scripts/wuffs_harness.c is built with gcc -O3 -march=native into .build-peers/wuffs/
# (git-ignored), and rebuilt only when it, the wuffs file or the flags change. Folders are searched
# recursively for .png, .apng and .gif files, as stickers bench does. For each file, the three
# take turns for WUFFS_BENCH_ROUNDS rounds (default 5), so a drift of the machine's speed reaches
# all three alike:
#   ours   stickers bench FILE --threads 1 --repeat 10 --json (files[0].megapixelsPerSecond, the
#          median of its turns);
#   wuffs  the harness, twice: every frame decoded and composited into an RGBA8 canvas, straight
#          (RGBA_NONPREMUL) and premultiplied (RGBA_PREMUL, what ours produces), each the median
#          of 5 runs of at least 0.05 s. wuffs verifies PNG chunk CRCs and zlib Adler-32
#          checksums (its defaults), ours chunk CRCs only; WUFFS_IGNORE_CHECKSUM=1 runs wuffs
#          with its checksums off (QUIRK_IGNORE_CHECKSUM: CRCs too, less checking than ours).
# The table gives each decoder's median MP/s over the rounds, and each ratio as the median of
# the rounds' own ratios with their lowest and highest in brackets.
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

[ $# -ge 1 ] || { sed -n '5,12p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ -f "$1/release/c/wuffs-v0.4.c" ] ||
  fail "$1/release/c/wuffs-v0.4.c not found. WUFFS_DIR must be a wuffs 0.4 checkout, e.g.: $clone"
wuffs_dir=$(cd "$1" && pwd); shift
wuffs_c="$wuffs_dir/release/c/wuffs-v0.4.c"
command -v gcc >/dev/null || fail "gcc not found; install it (Debian: apt-get install gcc)."
command -v python3 >/dev/null || fail "python3 not found (it reads stickers bench --json)."
stickers="${STICKERS:-$root/.build/release/stickers}"
checksums=()
[ "${WUFFS_IGNORE_CHECKSUM:-0}" = 1 ] && checksums=(--ignore-checksum)
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
echo "wuffs $version (gcc $(gcc -dumpfullversion) ${flags[*]:0:2}) against stickers $(git -C "$root" describe --always --dirty 2>/dev/null || echo '?') ($stickers), one thread each, on ${cpu:-an unnamed CPU} ($(nproc) cores)."
echo
echo "| file | frames | wuffs straight MP/s | wuffs premultiplied MP/s | ours MP/s | ours / straight | ours / premultiplied | largest difference |"
echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"

rounds=${WUFFS_BENCH_ROUNDS:-5}
[[ "$rounds" =~ ^[1-9][0-9]*$ ]] || fail "WUFFS_BENCH_ROUNDS must be a positive whole number, not '$rounds'"
row_error() { echo "| $1 | - | error: ${2//|/\\|} | - | - | - | - | - |"; status=1; }
status=0
for file in "${files[@]}"; do
  name=$(basename "$file")
  echo "$name: frames compared, then $rounds rounds of ours, wuffs straight, wuffs premultiplied" >&2
  # Untimed: ours' frames, and wuffs' premultiplied ones compared with them.
  rm -rf "$out/frames"
  if ! "$stickers" frames "$file" --out "$out/frames" --format rgba 2>"$out/ours.err"; then
    row_error "$name" "$(tail -n 1 "$out/ours.err")"; continue
  fi
  find "$out/frames" -name 'frame-*.rgba' | LC_ALL=C sort | xargs cat >"$out/ours.rgba"
  # COMPARE frames_compared max_difference differing_bytes, then
  # RESULT wuffs file frames W H ms_per_file MP/s crc32
  if ! result=$("$harness" "$file" 0 --premultiplied "${checksums[@]}" --compare "$out/ours.rgba" 2>&1); then
    row_error "$name" "wuffs: $result"; continue
  fi
  if ! grep -q '^RESULT' <<< "$result"; then
    echo "| $name | - | ${result//|/\\|} | - | - | - | - | - |"; continue
  fi
  read -r _ compared max_diff _ <<< "$(grep '^COMPARE' <<< "$result")"
  read -r _ _ _ wuffs_frames _ <<< "$(grep '^RESULT' <<< "$result")"

  ours_mps=() straight_mps=() premultiplied_mps=() our_frames=""
  for ((round = 0; round < rounds; round++)); do
    if ! "$stickers" bench "$file" --threads 1 --repeat 10 --json >"$out/ours.json" 2>"$out/ours.err"; then
      row_error "$name" "$(tail -n 1 "$out/ours.err")"; continue 2
    fi
    # {"files": [{"megapixelsPerSecond": ..., "result": {"frames": ...}}], ...}
    if ! ours=$(python3 -c '
import json, sys
entry = json.load(open(sys.argv[1]))["files"][0]
print(entry["result"]["frames"], entry["megapixelsPerSecond"])' "$out/ours.json" 2>/dev/null); then
      row_error "$name" "unreadable stickers bench --json"; continue 2
    fi
    read -r our_frames mps <<< "$ours"; ours_mps+=("$mps")
    for kind in straight premultiplied; do
      args=("$file" 0.25 "${checksums[@]}")
      [ "$kind" = premultiplied ] && args+=(--premultiplied)
      if ! result=$("$harness" "${args[@]}" 2>&1); then
        row_error "$name" "wuffs $kind: $result"; continue 3
      fi
      read -r _ _ _ _ _ _ _ mps _ <<< "$result"
      if [ "$kind" = straight ]; then straight_mps+=("$mps"); else premultiplied_mps+=("$mps"); fi
    done
  done

  frames=$wuffs_frames difference=$max_diff
  if [ "$our_frames" != "$wuffs_frames" ] || [ "$compared" != "$wuffs_frames" ]; then
    frames="wuffs $wuffs_frames, ours $our_frames"; difference="-"; status=1
  fi
  python3 - "$name" "$frames" "$difference" "${ours_mps[*]}" "${straight_mps[*]}" "${premultiplied_mps[*]}" <<'PY'
import statistics, sys
name, frames, difference, ours, straight, premultiplied = sys.argv[1:]
ours, straight, premultiplied = ([float(v) for v in column.split()] for column in (ours, straight, premultiplied))
def ratio(peer):
    ratios = [o / p for o, p in zip(ours, peer)]
    return f"{statistics.median(ratios):.2f}x ({min(ratios):.2f}-{max(ratios):.2f})"
print(f"| {name} | {frames} | {statistics.median(straight):.1f} | {statistics.median(premultiplied):.1f} | "
      f"{statistics.median(ours):.1f} | {ratio(straight)} | {ratio(premultiplied)} | {difference} |")
PY
done
exit $status
