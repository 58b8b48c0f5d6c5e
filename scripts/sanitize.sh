#!/usr/bin/env bash
# Runs the test suite under AddressSanitizer and ThreadSanitizer (the parallel decode paths
# must be race-free). Usage: scripts/sanitize.sh [address|thread|all] [swift test filter]
# Each sanitizer builds optimized, like make test (-c release -enable-testing), into its own
# .build-<name> folder (git-ignored): a debug build under TSan would take most of an hour.
set -euo pipefail
cd "$(dirname "$0")/.."
which="${1:-all}"
filter="${2:-}"
# LeakSanitizer flags two objects that XCTest's own runner never frees (XCTestSuiteRun,
# XCTMain), before any test runs; leak checking is off so they do not fail the run.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=0}"
run() {
  local sanitizer="$1"
  local flags=(-c release -Xswiftc -enable-testing --sanitize="$sanitizer" --scratch-path ".build-$sanitizer")
  # The bomb tests then skip their memory budgets (shadow memory is not the decoder's).
  export STICKERKIT_SANITIZER="$sanitizer"
  echo "== swift test --sanitize=$sanitizer ${filter:+--filter $filter}"
  swift build --build-tests "${flags[@]}"
  swift test --skip-build "${flags[@]}" --parallel --num-workers 2 ${filter:+--filter "$filter"}
}
case "$which" in
  address|thread) run "$which" ;;
  all) run address; run thread ;;
  *) echo "usage: $0 [address|thread|all] [filter]" >&2; exit 2 ;;
esac
