#!/usr/bin/env bash
# Installs sticker-convert (https://github.com/laggykiller/sticker-convert, GPL-2.0), the peer
# `stickers bench --fit-peer` compares `stickers fit` with, into its own Python virtualenv. It is
# only ever run as a separate program.
#
#   scripts/setup-sticker-convert.sh
#
# The virtualenv goes to $STICKER_CONVERT_VENV (default: .build-peers/sticker-convert in the
# repository, git-ignored); the bench looks there too. $STICKER_CONVERT_SPEC is the pip
# requirement (default: sticker-convert; the bench was written against 2.21.0.2, so
# STICKER_CONVERT_SPEC=sticker-convert==2.21.0.2 reproduces its figures). Nothing is done when
# the program is already there. Needs python3 with venv (Debian: apt-get install python3-venv).
set -euo pipefail
cd "$(dirname "$0")/.."
venv="${STICKER_CONVERT_VENV:-.build-peers/sticker-convert}"
spec="${STICKER_CONVERT_SPEC:-sticker-convert}"
program="$venv/bin/sticker-convert"
if [ -x "$program" ]; then
  echo "sticker-convert is already installed: $program ($("$program" --version 2>/dev/null | tail -n 1))"
  exit 0
fi
if [ ! -x "$venv/bin/pip" ]; then
  python3 -m venv "$venv" || { echo "python3 -m venv failed (Debian: apt-get install python3-venv)" >&2; exit 1; }
fi
"$venv/bin/pip" install --disable-pip-version-check "$spec"
echo "installed: $program ($("$program" --version 2>/dev/null | tail -n 1))"
[ "$venv" = ".build-peers/sticker-convert" ] || echo "the bench finds it with STICKER_CONVERT_VENV=$venv, or --sticker-convert $program"
