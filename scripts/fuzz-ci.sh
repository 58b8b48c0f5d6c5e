#!/usr/bin/env bash
# CI's fuzz stage: every libFuzzer target of scripts/fuzz.sh for a bounded time, two at a time
# (one per core), then a self-test proving that a finding fails this script.
#   scripts/fuzz-ci.sh [TARGET...]          (all of png apng gif jpeg webp webm lottie contents pack transcript xcode by default)
#   scripts/fuzz-ci.sh --self-test          (only the self-test)
#   STICKERKIT_FUZZ_SECONDS=N                (per target; 60 by default)
# Fails (exit 1) when a target finds anything (crash, sanitizer report, leak, timeout, out of
# memory) or does not build, and names the target, the input it saved and how to replay it.
# Seeds are what scripts/fuzz.sh finds: the repository's own, plus the conformance suites when
# present (nothing here needs ../shared). Each target's whole output is in .build-fuzz/ci-TARGET.log.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${STICKERKIT_FUZZ_SECONDS:-60}"
out=.build-fuzz
mkdir -p "$out"
all=(png apng gif jpeg webp webm lottie contents pack transcript xcode)
self_test_only=false
if [ "${1:-}" = --self-test ]; then self_test_only=true; shift; fi
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=("${all[@]}")
for t in "${targets[@]}"; do
  case " ${all[*]} " in *" $t "*) ;; *) echo "fuzz-ci: unknown target $t (targets: ${all[*]})" >&2; exit 2 ;; esac
done

# The executable scripts/fuzz.sh builds for a target (png and apng share one).
binary_of() { case "$1" in apng) echo "$out/fuzz-png" ;; *) echo "$out/fuzz-$1" ;; esac; }

# Builds and fuzzes one target, its output in $target_log (.build-fuzz/ci-TARGET.log unless set); prints
# one line, and on failure what it found. A build, a run or a hang past twice its time plus ten
# minutes fails it. Returns 1 on failure.
run_target() {
  local target="$1" log="${target_log:-$out/ci-$1.log}" status=0 start=$SECONDS
  timeout --signal=KILL $((2 * seconds + 600)) scripts/fuzz.sh "$target" "$seconds" > "$log" 2>&1 || status=$?
  # libFuzzer names every input it saves for a finding; slow-unit files are only reports.
  local found
  found=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log" | grep -v '/slow-unit-' || true)
  if [ "$status" = 0 ] && [ -z "$found" ]; then
    echo "fuzz-ci: $target: ok, $((SECONDS - start)) s ($(grep -o 'Done [0-9]* runs' "$log" | tail -1 | cut -d' ' -f2) runs)"
    return 0
  fi
  echo "fuzz-ci: $target: FAILED (exit $status) after $((SECONDS - start)) s; the end of $log:"
  grep -v 'ld.gold: warning' "$log" | tail -40 | sed 's/^/    /'
  if [ -n "$found" ]; then
    for input in $found; do
      echo "fuzz-ci: $target: input $input; replay with: $(binary_of "$target") $input"
    done
  else
    echo "fuzz-ci: $target: no input saved: the build failed or the run was killed (see above)"
  fi
  return 1
}

# The targets split over two lanes, one per core, of about the same work: png, apng, gif, jpeg
# and webm; and webp, contents, pack, transcript and xcode (which share modules, so they build in
# one lane) and lottie.
lane() {
  local failed=0
  for t in "$@"; do run_target "$t" || failed=1; done
  return $failed
}
lane_a=() lane_b=()
for t in "${targets[@]}"; do
  case "$t" in png|apng|gif|jpeg|webm) lane_a+=("$t") ;; *) lane_b+=("$t") ;; esac
done

# Plants a finding and checks that run_target reports it: a 2048x2048 GIF, whose 16 MiB canvas
# the decoder allocates over an 8 MiB malloc limit. libFuzzer stops there, inside the decoder,
# saves the input and exits non-zero, as it does for a crash, a leak or a timeout.
self_test() {
  local dir report status=0
  dir=$(mktemp -d)
  python3 -c 'import sys; from PIL import Image; Image.new("P", (2048, 2048)).save(sys.argv[1])' "$dir/big.gif"
  report=$(STICKERKIT_FUZZ_FLAGS="-malloc_limit_mb=8 -artifact_prefix=$dir/ $dir" seconds=30 target_log="$out/ci-self-test.log" \
    run_target gif) || status=$?
  rm -rf "$dir"
  if [ "$status" = 1 ] && grep -q "fuzz-ci: gif: input $dir/" <<< "$report"; then
    echo "fuzz-ci: self-test: ok, a planted finding fails the run and is named"
    return 0
  fi
  echo "fuzz-ci: self-test FAILED: a planted finding was not reported (status $status):"
  sed 's/^/    /' <<< "$report"
  return 1
}

if $self_test_only; then self_test; exit; fi
start=$SECONDS
echo "fuzz-ci: ${targets[*]}, $seconds s each, two at a time"
failed=0
lane "${lane_a[@]}" & a=$!
lane "${lane_b[@]}" & b=$!
wait $a || failed=1
wait $b || failed=1
self_test || failed=1
echo "fuzz-ci: $((SECONDS - start)) s in all"
exit $failed
