#!/usr/bin/env bash
# import.sh CORPUS [ROUNDS]
# Wall time and peak RSS of `intake import` (release build, no renditions) on the 12 MP and 48 MP JPEG sets of a
# corpus made by ../shared/bench/make-corpus.sh, against `cp` followed by `sha256sum` of the same files, measured
# side by side in one run (median of ROUNDS rounds, default 5, alternating the tools; page cache warm for all;
# `sync` before each measurement so no tool pays for another's write-back).
# Targets (issue 2): intake <= 1.0x the time of cp + sha256sum; peak RSS < 64 MB on the 48 MP set.
set -euo pipefail
CORPUS=$(cd "${1:?usage: import.sh CORPUS [ROUNDS]}" && pwd)
ROUNDS=${2:-5}
cd "$(dirname "$0")/.."
INTAKE=$(Scripts/build-release.sh 2>/dev/null)
NORENDITIONS=$("$INTAKE" import --help | grep -q -- --no-renditions && echo --no-renditions || true)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/intake-bench.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
measure() { python3 Benchmarks/measure.py "$@"; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

printf '%-8s %-22s %10s %12s\n' set tool "seconds" "peak RSS MB"
for set in j12 j48; do
  files=("$CORPUS/${set}_"*.jpg)
  cat "${files[@]}" >/dev/null   # warm the page cache for every tool alike
  : >"$WORK/intake.t"; : >"$WORK/cp.t"; : >"$WORK/intake.rss"; : >"$WORK/cp.rss"
  for round in $(seq "$ROUNDS"); do
    rm -rf "$WORK/lib" "$WORK/copy"; mkdir -p "$WORK/copy"; sync
    measure intake -- "$INTAKE" import --library "$WORK/lib" $NORENDITIONS "${files[@]}" >"$WORK/m"
    read -r _ t rss <"$WORK/m"; echo "$t" >>"$WORK/intake.t"; echo "$rss" >>"$WORK/intake.rss"
    rm -rf "$WORK/lib"; sync
    measure cp -- bash -c 'cp "$@" "'"$WORK/copy"'/" && cd "'"$WORK/copy"'" && sha256sum -- * >/dev/null' _ "${files[@]}" >"$WORK/m"
    read -r _ t rss <"$WORK/m"; echo "$t" >>"$WORK/cp.t"; echo "$rss" >>"$WORK/cp.rss"
  done
  ti=$(median <"$WORK/intake.t"); tc=$(median <"$WORK/cp.t")
  ri=$(sort -n "$WORK/intake.rss" | tail -1); rc=$(sort -n "$WORK/cp.rss" | tail -1)
  bytes=$(cat "${files[@]}" | wc -c)
  printf '%-8s %-22s %10.3f %12.1f\n' "$set" "intake import" "$ti" "$(echo "$ri/1024" | bc -l)"
  printf '%-8s %-22s %10.3f %12.1f\n' "$set" "cp + sha256sum" "$tc" "$(echo "$rc/1024" | bc -l)"
  printf '%-8s ratio intake/(cp+sha256sum) = %.2f  (%d files, %.0f MB, intake %.0f MB/s)\n' "$set" \
    "$(echo "$ti/$tc" | bc -l)" "${#files[@]}" "$(echo "$bytes/1000000" | bc -l)" "$(echo "$bytes/1000000/$ti" | bc -l)"
done
