#!/usr/bin/env bash
# Gets the third-party conformance suites the tests read, and verifies every file against the
# checked-in manifests (scripts/conformance/SUITE.sha256, one "sha256  path" line a file).
#
#   scripts/get-conformance.sh                 # download each file from its upstream repository
#   scripts/get-conformance.sh --from DIR      # copy from a local copy (DIR/SUITE/...) instead
#   scripts/get-conformance.sh --into DIR      # where to put them (default: .conformance, git-ignored)
#   scripts/get-conformance.sh --check DIR     # only verify DIR against the manifests
#
# The tests find the suites at $STICKERKIT_CONFORMANCE, else ../shared/conformance, else
# .conformance. A suite is moved into place only when all of its files verified, so a failed or
# interrupted run never leaves a half-filled suite behind.
#
# Suites: folder | upstream repository @ commit | path there | licence
#   pngsuite           lunapaint/pngsuite @ 8cd768dd0d0063195174d0d01cacbd5a7d1e5605   png/, json/  PngSuite licence (free use, notice kept)
#   apng-philip-taylor python-pillow/Pillow @ 4e5f09f533dbd0d87d39951f48b62f4d1a421cba Tests/images/apng/  MIT-CMU (HPND); Philip Taylor's APNG tests
#   gif-pillow         python-pillow/Pillow @ 4e5f09f533dbd0d87d39951f48b62f4d1a421cba Tests/images/  MIT-CMU (HPND)
#   gif-peterdn        peterdn/gif-test-suite @ 0276a1ff9c39ac0f943009ed4d90cb4120036d48 gifs/  BSD-2-Clause
#   image-gif-tests    image-rs/image-gif @ c1a6c4f18aec2884fe4fa7ce4fdbead92c975af1 tests/  MIT OR Apache-2.0
#   wuffs-testdata     google/wuffs @ 2560db99aa19c524880b56b0119cd8e979597490 test/data/  Apache-2.0 / MIT
#   stickers-blobfox   adri326/blobfox @ 445df93c31bd691ff5937a3272b42eafd453f6d3 blobfox.tar.gz  Apache-2.0
set -euo pipefail
cd "$(dirname "$0")/.."
manifests=scripts/conformance
into=.conformance
from=""
check=""
while [ $# -gt 0 ]; do
  case "$1" in
    --from) from="$2"; shift 2 ;;
    --into) into="$2"; shift 2 ;;
    --check) check="$2"; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "get-conformance: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
done

suites=(pngsuite apng-philip-taylor gif-pillow gif-peterdn image-gif-tests wuffs-testdata stickers-blobfox)

# Verifies folder $2 against suite $1's manifest; prints the first problems.
verify() {
  local suite="$1" folder="$2"
  [ -d "$folder" ] || { echo "$suite: missing ($folder)" >&2; return 1; }
  if ! (cd "$folder" && sha256sum --quiet --strict -c "$OLDPWD/$manifests/$suite.sha256") >/tmp/get-conformance.$$ 2>&1; then
    echo "$suite: does not match $manifests/$suite.sha256:" >&2
    head -5 /tmp/get-conformance.$$ >&2
    rm -f /tmp/get-conformance.$$
    return 1
  fi
  rm -f /tmp/get-conformance.$$
}

if [ -n "$check" ]; then
  status=0
  for suite in "${suites[@]}"; do verify "$suite" "$check/$suite" || status=1; done
  [ $status = 0 ] && echo "all ${#suites[@]} suites verified in $check"
  exit $status
fi

# The upstream URL of a file, from its path in our layout.
raw() { echo "https://raw.githubusercontent.com/$1/$2/$3"; }
upstream() {
  local suite="$1" path="$2"
  case "$suite" in
    pngsuite)
      case "$path" in
        PngSuite.LICENSE) path=LICENSE ;;
        lunapaint-README.md) path=README.md ;;
        json/lunapaint-json-README.md) path=json/README.md ;;
      esac
      raw lunapaint/pngsuite 8cd768dd0d0063195174d0d01cacbd5a7d1e5605 "$path" ;;
    apng-philip-taylor)
      [ "$path" = Pillow-LICENSE ] && path=LICENSE || path="Tests/images/apng/$path"
      raw python-pillow/Pillow 4e5f09f533dbd0d87d39951f48b62f4d1a421cba "$path" ;;
    gif-pillow)
      [ "$path" = Pillow-LICENSE ] && path=LICENSE || path="Tests/images/$path"
      raw python-pillow/Pillow 4e5f09f533dbd0d87d39951f48b62f4d1a421cba "$path" ;;
    gif-peterdn)
      case "$path" in
        LICENSE|gifsuite.html) ;;
        upstream-README.md) path=README.md ;;
        *) path="gifs/$path" ;;
      esac
      raw peterdn/gif-test-suite 0276a1ff9c39ac0f943009ed4d90cb4120036d48 "$path" ;;
    image-gif-tests)
      [ "$path" = LICENSE-MIT ] || path="tests/$path"
      raw image-rs/image-gif c1a6c4f18aec2884fe4fa7ce4fdbead92c975af1 "$path" ;;
    wuffs-testdata)
      case "$path" in
        LICENSE) ;;
        wuffs-testdata-README.md) path=test/data/README.md ;;
        *) path="test/data/$path" ;;
      esac
      raw google/wuffs 2560db99aa19c524880b56b0119cd8e979597490 "$path" ;;
  esac
}

# Fills folder $2 with suite $1's files.
fetch_suite() {
  local suite="$1" staging="$2" hash path
  if [ -n "$from" ]; then
    while read -r hash path; do
      mkdir -p "$staging/$(dirname "$path")"
      cp "$from/$suite/$path" "$staging/$path"
    done < "$manifests/$suite.sha256"
  elif [ "$suite" = stickers-blobfox ]; then
    # The stickers are inside an archive in the repository: fetch it once, take them out.
    local archive="$staging/.archive"
    mkdir -p "$archive"
    curl -fsSL "$(raw adri326/blobfox 445df93c31bd691ff5937a3272b42eafd453f6d3 blobfox.tar.gz)" -o "$archive/blobfox.tar.gz"
    curl -fsSL "$(raw adri326/blobfox 445df93c31bd691ff5937a3272b42eafd453f6d3 LICENSE.txt)" -o "$staging/LICENSE-blobfox-repo"
    tar -xzf "$archive/blobfox.tar.gz" -C "$archive"
    while read -r hash path; do
      [ "$path" = LICENSE-blobfox-repo ] && continue
      local name="$path"
      [ "$path" = LICENSE-feuerfuchs-original ] && name=LICENSE
      local found
      found=$(find "$archive" -type f -name "$name" | head -1)
      [ -n "$found" ] && cp "$found" "$staging/$path"
    done < "$manifests/$suite.sha256"
    rm -rf "$archive"
  else
    while read -r hash path; do
      mkdir -p "$staging/$(dirname "$path")"
      curl -fsSL --retry 2 "$(upstream "$suite" "$path")" -o "$staging/$path"
    done < "$manifests/$suite.sha256"
  fi
}

mkdir -p "$into"
status=0
for suite in "${suites[@]}"; do
  if [ -d "$into/$suite" ] && verify "$suite" "$into/$suite" 2>/dev/null; then
    echo "$suite: already present and verified"
    continue
  fi
  staging="$into/.$suite.partial-$$"
  rm -rf "$staging"
  trap 'rm -rf "$staging"' EXIT INT TERM
  if fetch_suite "$suite" "$staging" && verify "$suite" "$staging"; then
    rm -rf "$into/$suite"
    mv "$staging" "$into/$suite"
    echo "$suite: $(wc -l < "$manifests/$suite.sha256") files verified"
  else
    rm -rf "$staging"
    echo "$suite: not installed" >&2
    status=1
  fi
  trap - EXIT INT TERM
done
[ $status = 0 ] && echo "conformance suites in $into (the tests find them there; or set STICKERKIT_CONFORMANCE)"
exit $status
