#!/usr/bin/env bash
# check-snippets.sh [OUT]
# Compiles every ```swift block of README.md and of the DocC catalogs as a user of the package would: one
# package (OUT, default .build/snippets) that depends on this one by path, one file per block, built once.
# Fragments are wrapped as Scripts/snippets.py describes (the fence's info string says how); errors name the
# Markdown file and line. Manifest blocks are type-checked against PackageDescription; Apple-only blocks
# (```swift ios) go through Scripts/ios-typecheck.sh when the iOS SDK is set up, and are listed as skipped
# otherwise. Exit 1 when a block does not compile, or when the libraries do not type-check against that SDK.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
OUT=$(mkdir -p "${1:-.build/snippets}" && cd "${1:-.build/snippets}" && pwd)
start=$(date +%s)
python3 Scripts/snippets.py "$ROOT" "$OUT"
failed=0

echo "check-snippets: $(grep -c '^fragment\|^continued\|^file' "$OUT/blocks.tsv") blocks, $(ls "$OUT/Sources/Snippets" | wc -l) files," \
  "built as a package depending on this one"
if ! (cd "$OUT" && swift build 2>&1) >"$OUT/build.log"; then
  grep -E '^/.*: error: ' "$OUT/build.log" | sort -u >&2 || cat "$OUT/build.log" >&2
  failed=1
fi

MANIFEST_API="$(dirname "$(dirname "$(readlink -f "$(command -v swiftc)")")")/lib/swift/pm/ManifestAPI"
while IFS=$'\t' read -r kind file line generated; do
  [ "$kind" = manifest ] || continue
  if ! swiftc -typecheck -swift-version 6 -package-description-version 6.0 -I "$MANIFEST_API" \
    "$OUT/$generated" 2>"$OUT/manifest.log"; then
    grep -E ': error: ' "$OUT/manifest.log" >&2 || cat "$OUT/manifest.log" >&2
    failed=1
  fi
done <"$OUT/blocks.tsv"

SDK=${IOS_SDK:-$HOME/.cache/photointake/iPhoneOS26.2.sdk}
ios=$(awk -F'\t' '$1 == "ios" { print $2 ":" $3 }' "$OUT/blocks.tsv")
if [ -n "$ios" ]; then
  LIBRARIES=(PhotoMetadata PhotoIntake PhotoIntakeTesting PhotoIntakeUI)
  # One cell of Scripts/ios-typecheck.sh's matrix (the SDK apps build with today, -typecheck only): the whole
  # matrix is that script's own job, and would take an hour here.
  export CELLS=${SNIPPET_CELL:-ios26.2/ios18.0} MODES=typecheck
  if [ -d "$SDK" ] && ! Scripts/ios-typecheck.sh "${LIBRARIES[@]}" >"$OUT/ios.log" 2>&1; then
    # The blocks cannot be checked against libraries that do not type-check; and libraries that do not
    # type-check against the SDK apps build with are a failure of their own, never a skip.
    grep -E '^(Sources|/).*: error: ' "$OUT/ios.log" | sort -u >&2 || tail -5 "$OUT/ios.log" >&2
    for block in $ios; do
      echo "check-snippets: not checked $block (Apple-only; the libraries do not type-check against the iOS" \
        "SDK, above)" >&2
    done
    failed=1
  elif [ -d "$SDK" ]; then
    if ! Scripts/ios-typecheck.sh "${LIBRARIES[@]}" "$OUT/ios" >"$OUT/ios.log" 2>&1; then
      grep -E '^/.*: error: ' "$OUT/ios.log" | sort -u >&2 || cat "$OUT/ios.log" >&2
      failed=1
    fi
  else
    for block in $ios; do
      echo "check-snippets: skipped $block (Apple-only; no iOS SDK at $SDK, see ../shared/tools/README.md)"
    done
  fi
fi

if [ $failed = 0 ]; then
  echo "check-snippets: all blocks compile ($(($(date +%s) - start)) s)"
else
  echo "check-snippets: some blocks do not compile (above: Markdown file:line: error)" >&2
fi
exit $failed
