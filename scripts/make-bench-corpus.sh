#!/usr/bin/env bash
# Generates the benchmark corpus (Benchmarks/make_corpus.py: numpy + Pillow) into the
# git-ignored corpus-bench/ folder. Pass --no-stress to skip the 1024x1024 x 100-frame files.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -c "import numpy, PIL" 2>/dev/null || python3 -m pip install -q --disable-pip-version-check numpy pillow
python3 Benchmarks/make_corpus.py corpus-bench "$@"
