#!/usr/bin/env bash
# docs.sh OUT
# Builds the static DocC documentation of PhotoMetadata, PhotoIntake, PhotoIntakeTesting and PhotoIntakeAudit
# into OUT (OUT/<Module>/ each, OUT/index.html linking them) with the toolchain's own swift-symbolgraph-extract
# (Scripts/symbol-graphs.sh) and `docc convert`; no SwiftPM plugin. The pages are a single-page app that loads
# JSON, so serve OUT over HTTP (`python3 -m http.server -d OUT`) rather than opening the files.
# Fails when a documentation link (``Symbol`` or <doc:Article>) does not resolve, naming the file and line.
# PhotoIntakeUI is Apple-only; its symbol graph needs the iOS SDK and is left out here.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:?usage: docs.sh OUT}
MODULES=(PhotoMetadata PhotoIntake PhotoIntakeTesting PhotoIntakeAudit)
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
GRAPHS=.build/docs-symbol-graphs
Scripts/symbol-graphs.sh "$GRAPHS" "${MODULES[@]}"
failed=0
for m in "${MODULES[@]}"; do
  rm -rf "${OUT:?}/$m"
  # Each module is its own archive, hosted under /<Module>/.
  docc convert "Sources/$m/$m.docc" --additional-symbol-graph-dir "$GRAPHS/$m" \
    --fallback-display-name "$m" --fallback-bundle-identifier "org.photointake.$m" \
    --transform-for-static-hosting --hosting-base-path "$m" --output-path "$OUT/$m" >"$GRAPHS/$m.log" 2>&1 || {
    cat "$GRAPHS/$m.log" >&2
    exit 1
  }
  # An unresolved link renders as plain text, so DocC only warns; here it is an error.
  if grep -E -A1 "^warning: .*(doesn't exist at|is ambiguous at|No external resolver)" "$GRAPHS/$m.log" \
    | grep -E '^warning|-->' >&2; then
    failed=1
  fi
done
{
  echo '<!doctype html><meta charset="utf-8"><title>PhotoIntake documentation</title>'
  echo '<h1>PhotoIntake documentation</h1><ul>'
  for m in "${MODULES[@]}"; do
    lower=$(echo "$m" | tr '[:upper:]' '[:lower:]')
    echo "<li><a href=\"$m/documentation/$lower/\">$m</a></li>"
  done
  echo '</ul>'
} >"$OUT/index.html"
echo "docs.sh: $(du -sh "$OUT" | cut -f1) in $OUT"
[ $failed = 0 ] || { echo "docs.sh: unresolved documentation links (above)" >&2; exit 1; }
