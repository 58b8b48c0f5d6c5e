#!/usr/bin/env bash
# Generates the benchmark corpus (../shared/bench/make_corpus.py: numpy + Pillow) into the
# git-ignored corpus-bench/ folder, so `stickers bench corpus-bench` figures compare with the
# issue's reference table. Pass --no-stress to skip the 1024x1024 x 100-frame files.
set -euo pipefail
cd "$(dirname "$0")/.."
generator="../shared/bench/make_corpus.py"
[ -f "$generator" ] || { echo "missing $generator (shared/ must sit beside the repo)" >&2; exit 1; }
python3 -c "import numpy, PIL" 2>/dev/null || python3 -m pip install -q --disable-pip-version-check numpy pillow
python3 "$generator" corpus-bench "$@"
