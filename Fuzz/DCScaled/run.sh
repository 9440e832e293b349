#!/usr/bin/env bash
# run.sh SECONDS
# Builds the DC-coefficient JPEG decoder (Sources/CVips/dc_scaled.c) with libFuzzer, AddressSanitizer and
# UndefinedBehaviorSanitizer (clang of the Swift toolchain) and fuzzes it for SECONDS, seeded with the JPEG
# fixtures (every sampling, restart markers, refused codings). Crashes go to Fuzz/DCScaled/artifacts/ (not in
# git); exits 1 on any. Every finding must become a DCScaledTests case.
set -euo pipefail
cd "$(dirname "$0")"
SECONDS_TO_RUN=${1:?usage: run.sh SECONDS}
ROOT=$(cd ../.. && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I"$ROOT/Sources/CVips/include" \
  -o "$TMP/fuzz" fuzz.c "$ROOT/Sources/CVips/dc_scaled.c" 2>&1 | grep -v "Cannot export local symbol" || true
mkdir -p "$TMP/corpus" artifacts
cp "$ROOT"/Tests/PhotoIntakeTests/Fixtures/Imaging/DCScaled/*.jpg "$ROOT"/Tests/PhotoIntakeTests/Fixtures/Imaging/*.jpg \
  "$TMP/corpus/"
if "$TMP/fuzz" -max_total_time="$SECONDS_TO_RUN" -max_len=300000 -artifact_prefix=artifacts/ "$TMP/corpus" \
  >"$TMP/log" 2>&1; then
  echo "run.sh: $(grep -o 'Done [0-9]* runs' "$TMP/log" | tail -1), no finding"
else
  grep -m 20 -E "ERROR|runtime error|SUMMARY" "$TMP/log" || tail -20 "$TMP/log"
  echo "run.sh: a finding (above), saved in Fuzz/DCScaled/artifacts/" >&2
  exit 1
fi
