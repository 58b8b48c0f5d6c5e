#!/usr/bin/env bash
# Prints one line after the tests: which conformance suites were missing (so their tests were
# skipped) and the command that gets them. Finds them as the tests do: $STICKERKIT_CONFORMANCE,
# else ../shared/conformance, else .conformance.
cd "$(dirname "$0")/.."
if [ -n "${STICKERKIT_CONFORMANCE:-}" ]; then root="$STICKERKIT_CONFORMANCE"
elif [ -d ../shared/conformance ]; then root=../shared/conformance
else root=.conformance; fi
missing=()
for suite in $(ls scripts/conformance | sed -n 's/\.sha256$//p'); do
  [ -d "$root/$suite" ] || missing+=("$suite")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "conformance: all suites present in $root; no conformance test skipped"
else
  echo "conformance: skipped the tests that need ${missing[*]} (not in $root): scripts/get-conformance.sh gets them"
fi
