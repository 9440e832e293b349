#!/usr/bin/env bash
# bombs.sh [DIR]
# The decode-budget inputs of issue 24 (made by Benchmarks/make-bombs.py into DIR, default /work/bench/bombs)
# through `intake thumbnail`, `intake import` (with its 320 px renditions) and `intake export --as jpeg`,
# one process each, with the wall time, the peak RSS (Benchmarks/measure.py) and the exit status per input.
# Every input must be refused (exit 1, a sentence naming the decode limit or the damage) or handled within
# the budget: 256 MiB and about 2 s of decode. The script fails when a run holds more than LIMIT_KB (default
# 300000: the budget plus the process's own ~40 MB), takes more than LIMIT_S seconds (default 2, the issue's
# bound per item; give more on a machine busy with other builds), or ends otherwise than expected:
#   refused (1): the grid, the progressive JPEG, the GIF screen, the 100,000-frame WebP and the 196 MP PNG as
#     thumbnails and as JPEG exports (the progressive JPEG is exported as it is: no decode), the cut PNG as an
#     export (never passed off as the picture);
#   done (0): every import (the photo is kept, without a rendition it cannot afford), the cut PNG's
#     thumbnail (partial, as vipsthumbnail shows it), the movie claiming 65535x65535 (64x64 coded) everywhere.
# Env: INTAKE (default the release build of Scripts/build-release.sh), LIMIT_KB, LIMIT_S.
set -uo pipefail
export LC_ALL=C
DIR=${1:-/work/bench/bombs}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
INTAKE=${INTAKE:-$("$ROOT/Scripts/build-release.sh" 2>/dev/null)}
LIMIT_KB=${LIMIT_KB:-300000}
LIMIT_S=${LIMIT_S:-2}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
[ -s "$DIR/claimed.mov" ] || python3 "$ROOT/Benchmarks/make-bombs.py" "$DIR" >/dev/null
failed=0
# The exit status each run must end with (see above).
expected() {
  case "$1" in
    "import "*) echo 0 ;;
    "thumbnail truncated.png" | *"claimed.mov" | "export --as jpeg progressive.jpg") echo 0 ;;
    *) echo 1 ;;
  esac
}
# run LABEL COMMAND...: one line "LABEL wall_s peak_rss_kib exit".
run() {
  local label=$1
  shift
  local line status
  line=$(timeout $((LIMIT_S * 6)) python3 "$ROOT/Benchmarks/measure.py" "$label" -- "$@" 2>"$TMP/err")
  status=$?
  if [ -z "$line" ]; then
    # measure.py prints nothing when the command fails; time it again for the figures.
    /usr/bin/time -f "%e %M" -o "$TMP/time" timeout $((LIMIT_S * 6)) "$@" >/dev/null 2>&1
    line="$label $(tail -1 "$TMP/time")"
  fi
  wall=$(awk '{print $(NF-1)}' <<<"$line")
  rss=$(awk '{print $NF}' <<<"$line")
  [ -n "$wall" ] || { wall=0; rss=0; }
  printf '%-34s %8.2f s %9d KiB  exit %d\n' "$label" "$wall" "$rss" "$status"
  if [ "${rss%.*}" -gt "$LIMIT_KB" ] || [ "$(echo "$wall > $LIMIT_S" | bc -l)" = 1 ]; then
    echo "bombs.sh: $label is over budget" >&2
    failed=1
  fi
  if [ "$status" != "$(expected "$label")" ]; then
    echo "bombs.sh: $label ended with $status, expected $(expected "$label")" >&2
    failed=1
  fi
}
printf '%-34s %10s %13s  %s\n' input wall "peak RSS" status
for file in grid.heic progressive.jpg screen.gif frames.webp large.png truncated.png claimed.mov; do
  run "thumbnail $file" "$INTAKE" thumbnail "$DIR/$file" --out "$TMP/$file.jpg"
  rm -rf "$TMP/lib"
  run "import $file" "$INTAKE" import --library "$TMP/lib" "$DIR/$file"
  id=$("$INTAKE" list --library "$TMP/lib" --json 2>/dev/null | python3 -c \
    'import json,sys; lines=sys.stdin.read().split("\n"); print(json.loads(lines[0])["id"] if lines[0] else "")' \
    2>/dev/null)
  if [ -n "$id" ]; then
    run "export --as jpeg $file" "$INTAKE" export --library "$TMP/lib" --as jpeg "$id" "$TMP/out-$file.jpg"
  else
    echo "export --as jpeg $file: not imported (refused at import)"
  fi
done
exit $failed
