#!/usr/bin/env bash
# metadata.sh CORPUS [ROUNDS]
# Per-file metadata read time of `intake metadata --json` (release build) against `exiftool -fast -json` and
# `exiv2` (Debian 12 packages), each in batch mode (one process for the whole corpus), measured in the same
# run. Each tool reads the corpus ROUNDS times (default 3) and its best round counts, so that the page cache
# is warm for all and a busy moment does not decide. Two figures per tool:
#   wall/file      whole batch time / files (includes one process start)
#   marginal/file  (batch over every file − batch over one file) / (files − 1): the cost of one more file
# Ratios are exiftool/intake and exiv2/intake. Targets: ≥ 50× exiftool, ≥ 2× exiv2.
set -euo pipefail
CORPUS=${1:?usage: metadata.sh CORPUS [ROUNDS]}
ROUNDS=${2:-3}
cd "$(dirname "$0")/.."
for tool in exiftool exiv2; do
  command -v $tool >/dev/null || { echo "installing $tool" >&2; apt-get install -y -qq \
    "$([ $tool = exiftool ] && echo libimage-exiftool-perl || echo exiv2)" >/dev/null; }
done
INTAKE=$(Scripts/build-release.sh 2>/dev/null)

mapfile -t FILES < <(find "$CORPUS" -maxdepth 1 -type f \( -iname '*.jpg' -o -iname '*.jpeg' -o -iname '*.png' \
  -o -iname '*.heic' -o -iname '*.heif' -o -iname '*.avif' -o -iname '*.webp' -o -iname '*.tif' -o -iname '*.dng' \
  -o -iname '*.gif' -o -iname '*.mov' -o -iname '*.mp4' \) | sort)
N=${#FILES[@]}
[ "$N" -ge 2 ] || { echo "need at least 2 media files in $CORPUS" >&2; exit 1; }
BYTES=$(cat "${FILES[@]}" | wc -c)
cat "${FILES[@]}" > /dev/null   # warm the page cache for everyone

now() { date +%s%N; }
best() {  # best wall time in ns of ROUNDS runs of "$@"
  local b=0 t0 t1
  for _ in $(seq "$ROUNDS"); do
    t0=$(now); "$@" >/dev/null 2>&1 || true; t1=$(now)
    if [ "$b" = 0 ] || [ $((t1 - t0)) -lt "$b" ]; then b=$((t1 - t0)); fi
  done
  echo "$b"
}

intake_cmd() { "$INTAKE" metadata --json "$@"; }
exiftool_cmd() { exiftool -fast -json "$@"; }
exiv2_cmd() { exiv2 -q pr "$@"; }

printf 'corpus: %s, %d files, %d MB; best of %d rounds\n' "$CORPUS" "$N" $((BYTES / 1000000)) "$ROUNDS"
printf '%-10s %14s %16s\n' tool wall/file marginal/file
declare -A WALL MARG
for tool in intake exiftool exiv2; do
  all=$(best ${tool}_cmd "${FILES[@]}")
  one=$(best ${tool}_cmd "${FILES[0]}")
  WALL[$tool]=$((all / N))
  m=$(( (all - one) / (N - 1) )); [ "$m" -gt 0 ] || m=1
  MARG[$tool]=$m
  printf '%-10s %11.3f ms %13.3f ms\n' "$tool" "$(echo "${WALL[$tool]} / 1000000" | bc -l)" \
    "$(echo "${MARG[$tool]} / 1000000" | bc -l)"
done
ratio() { echo "scale=1; $1 / $2" | bc -l; }
printf 'exiftool/intake: %sx wall, %sx marginal (target >= 50x)\n' "$(ratio "${WALL[exiftool]}" "${WALL[intake]}")" \
  "$(ratio "${MARG[exiftool]}" "${MARG[intake]}")"
printf 'exiv2/intake:    %sx wall, %sx marginal (target >= 2x)\n' "$(ratio "${WALL[exiv2]}" "${WALL[intake]}")" \
  "$(ratio "${MARG[exiv2]}" "${MARG[intake]}")"
# The tools must have read the files: a quick sanity check of intake's output.
ok=$("$INTAKE" metadata --json "${FILES[@]}" 2>/dev/null | grep -c '"width":[0-9]' || true)
printf 'intake read %d of %d files with a size\n' "$ok" "$N"
