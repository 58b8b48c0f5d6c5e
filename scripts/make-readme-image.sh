#!/usr/bin/env bash
# Draws the README's picture, docs/images/compact.png: the sample pack's compact sticker browser
# as Messages shows it on an iPhone 15, at 2x (half the size of a 3x snapshot, sharp enough for a
# page). Run after changing the renderer or the sample pack: make docs.
set -euo pipefail
cd "$(dirname "$0")/.."
stickers=${STICKERS:-.build/release/stickers}
mkdir -p docs/images
"$stickers" render corpus/sample-pack --style compact --scale 2 -o docs/images/compact.png
