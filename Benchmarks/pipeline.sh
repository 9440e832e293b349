#!/usr/bin/env bash
# pipeline.sh CORPUS [ROUNDS]
# Issue 12's figures, side by side in one run (median of ROUNDS, default 3; page cache warm for every tool):
#   - the 40 x 12 MP JPEG set (j12_*.jpg):
#       Pillow pipeline (Benchmarks/pillow_pipeline.py: copy + fsync + SHA-256 + EXIF + 320 px thumbnail,
#       2 processes)  vs  intake import (default: 320 px at import), --rendition-size 320 --rendition-size 1024,
#       and --no-renditions;
#       intake thumbnail --size 320 of the 40 files  vs  two vipsthumbnail processes;
#   - peak RSS of `intake import` (default renditions) of the whole corpus (12/48 MP JPEG, PNG, HEIC).
# BASELINE=path/to/another/intake adds its default and --no-renditions imports to the same run (before/after).
# Needs: pip install pillow pillow-heif piexif exif; vipsthumbnail (libvips-tools); tjbench (libjpeg-turbo-progs)
# for the decode limit.
set -euo pipefail
export LC_ALL=C
CORPUS=$(cd "${1:?usage: pipeline.sh CORPUS [ROUNDS]}" && pwd)
ROUNDS=${2:-3}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
INTAKE=${INTAKE:-$("$ROOT/Scripts/build-release.sh" 2>/dev/null)}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/intake-pipeline.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
measure() { python3 "$ROOT/Benchmarks/measure.py" "$@"; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
files=("$CORPUS"/j12_*.jpg)
cat "${files[@]}" >/dev/null
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); ${#files[@]} photos"

run() { # LABEL COMMAND... : median wall seconds and peak RSS (MB) over ROUNDS, fresh output each round
  local label=$1; shift
  : >"$WORK/t"; : >"$WORK/r"
  for _ in $(seq "$ROUNDS"); do
    rm -rf "$WORK/out"; mkdir -p "$WORK/out"; sync
    measure "$label" -- "$@" >"$WORK/m"
    read -r _ t rss <"$WORK/m"; echo "$t" >>"$WORK/t"; echo "$rss" >>"$WORK/r"
  done
  echo "$(median <"$WORK/t") $(( $(sort -n "$WORK/r" | tail -1) / 1024 ))"
}

read -r pillow pillow_rss < <(run pillow python3 "$ROOT/Benchmarks/pillow_pipeline.py" "$WORK/out" "${files[@]}")
read -r dflt dflt_rss < <(run default "$INTAKE" import --library "$WORK/out/lib" "${files[@]}")
read -r both both_rss < <(run both "$INTAKE" import --library "$WORK/out/lib" --rendition-size 320 \
  --rendition-size 1024 "${files[@]}")
read -r none none_rss < <(run none "$INTAKE" import --library "$WORK/out/lib" --no-renditions "${files[@]}")
if [ -n "${BASELINE:-}" ]; then
  read -r bdflt bdflt_rss < <(run base-default "$BASELINE" import --library "$WORK/out/lib" "${files[@]}")
  read -r bnone bnone_rss < <(run base-none "$BASELINE" import --library "$WORK/out/lib" --no-renditions "${files[@]}")
fi
read -r thumb thumb_rss < <(run thumb "$INTAKE" thumbnail "${files[@]}" --size 320 --out "$WORK/out")
a=(); b=(); i=0
for f in "${files[@]}"; do if (( i++ % 2 )); then b+=("$f"); else a+=("$f"); fi; done
# Two vipsthumbnail processes, each on half of the files, timed together.
: >"$WORK/t2"
for _ in $(seq "$ROUNDS"); do
  rm -rf "$WORK/out"; mkdir -p "$WORK/out"; sync
  start=$(date +%s.%N)
  vipsthumbnail "${a[@]}" -s 320 -o "$WORK/out/%s.jpg[Q=82,strip]" &
  vipsthumbnail "${b[@]}" -s 320 -o "$WORK/out/%s.jpg[Q=82,strip]"
  wait
  echo "$(date +%s.%N) - $start" | bc >>"$WORK/t2"
done
vips2=$(median <"$WORK/t2")
all=("$CORPUS"/*.jpg "$CORPUS"/*.png "$CORPUS"/*.heic)
read -r _ corpus_rss < <(run corpus "$INTAKE" import --library "$WORK/out/lib" "${all[@]}")

# The decode limit: libjpeg-turbo's own 1/8-scale decode of one of the photos (tjbench, one core), times the cores.
# PhotoIntake's renditions at 1/8 scale decode only the DC coefficients (Sources/CVips/dc_scaled.c), at about 2/3
# of that cost, so `intake thumbnail` can pass this limit; it stays libjpeg-turbo's, the reference of issue 23.
limit=""
if command -v tjbench >/dev/null; then
  fps=$(cd "$WORK" && tjbench "${files[0]}" -scale 1/8 -benchtime 2 -warmup 1 2>/dev/null |
    awk '/Decompress.*Frame rate/ {print $(NF-1); exit}')
  [ -n "$fps" ] && limit=$(python3 -c "print(f'{$fps * $(nproc):.0f}')")
fi

ratio() { python3 -c "print(f'{$1/$2:.2f}x')"; }
printf '%-52s %9s %8s %9s\n' what seconds "MB" "speed vs ref"
printf '%-52s %9s %8s %9s\n' "Pillow pipeline, 2 processes (reference)" "$pillow" "$pillow_rss" "1.00x"
printf '%-52s %9s %8s %9s\n' "intake import (default: 320 px at import)" "$dflt" "$dflt_rss" "$(ratio "$pillow" "$dflt")"
printf '%-52s %9s %8s %9s\n' "intake import --rendition-size 320 --rendition-size 1024" "$both" "$both_rss" "$(ratio "$pillow" "$both")"
printf '%-52s %9s %8s %9s\n' "intake import --no-renditions" "$none" "$none_rss" "$(ratio "$pillow" "$none")"
if [ -n "${BASELINE:-}" ]; then
  printf '%-52s %9s %8s %9s\n' "baseline intake import (default)" "$bdflt" "$bdflt_rss" "$(ratio "$pillow" "$bdflt")"
  printf '%-52s %9s %8s %9s\n' "baseline intake import --no-renditions" "$bnone" "$bnone_rss" "$(ratio "$pillow" "$bnone")"
fi
printf '%-52s %9s %8s %9s\n' "two vipsthumbnail processes, 320 px (reference)" "$vips2" "" "1.00x"
printf '%-52s %9s %8s %9s\n' "intake thumbnail --size 320" "$thumb" "$thumb_rss" "$(ratio "$vips2" "$thumb")"
printf '%-52s %9s %8s\n' "intake import of the whole corpus (${#all[@]} files): peak RSS" "" "$corpus_rss"
if [ -n "$limit" ]; then
  echo "decode limit (tjbench -scale 1/8 x $(nproc) cores): $limit photos/s; intake import (default):" \
    "$(python3 -c "print(f'{${#files[@]}/$dflt:.0f}')") photos/s, intake thumbnail: $(python3 -c "print(f'{${#files[@]}/$thumb:.0f}')") photos/s"
fi
