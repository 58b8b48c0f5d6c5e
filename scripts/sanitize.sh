#!/usr/bin/env bash
# Runs the test suite under AddressSanitizer and ThreadSanitizer (the parallel decode paths
# must be race-free). Usage: scripts/sanitize.sh [address|thread|all] [swift test filter]
# Each sanitizer builds into its own .build-<name> folder (git-ignored).
set -euo pipefail
cd "$(dirname "$0")/.."
which="${1:-all}"
filter="${2:-}"
# LeakSanitizer flags two objects that XCTest's own runner never frees (XCTestSuiteRun,
# XCTMain), before any test runs; leak checking is off so they do not fail the run.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0}"
run() {
  local sanitizer="$1"
  echo "== swift test --sanitize=$sanitizer ${filter:+--filter $filter}"
  swift build --build-tests --sanitize="$sanitizer" --scratch-path ".build-$sanitizer"
  swift test --skip-build --sanitize="$sanitizer" --scratch-path ".build-$sanitizer" ${filter:+--filter "$filter"}
}
case "$which" in
  address|thread) run "$which" ;;
  all) run address; run thread ;;
  *) echo "usage: $0 [address|thread|all] [filter]" >&2; exit 2 ;;
esac
