#!/usr/bin/env bash
# export.sh CORPUS [ROUNDS]
# Times `intake export --as jpeg` per 12 MP HEIC of the benchmark corpus (shared/bench/make-corpus.sh, h12_*.heic)
# against `vips copy x.heic x.jpg`, both run as one process per photo, as scripts use them, in the same run:
#   full size   intake export ID out.jpg --as jpeg            vs  vips copy x.heic x.jpg[Q=90]
#   2048 px     intake export ... --as jpeg --max-size 2048    vs  vipsthumbnail x.heic -s 2048 -o x.jpg[Q=90]
# Both write JPEG at quality 90 (intake's default; vips's own default is 75). intake does more per photo: it
# opens the library, re-hashes the stored bytes, reads the headers for the bomb guard, carries the EXIF block
# over (orientation 1, new size) and embeds the ICC profile, writes beside the destination, fsyncs and links.
# Prints milliseconds per photo (wall and CPU, the median of ROUNDS rounds, default 3), peak RSS of one process,
# and the ratio intake / vips (above 1: intake is slower). The photos are imported once beforehand (not timed).
# Env: INTAKE (default the release build of Scripts/build-release.sh).
set -euo pipefail
export LC_ALL=C
CORPUS=${1:?usage: Benchmarks/export.sh CORPUS [ROUNDS]}
ROUNDS=${2:-3}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
INTAKE=${INTAKE:-$("$ROOT/Scripts/build-release.sh" 2>/dev/null)}
for tool in vips vipsthumbnail /usr/bin/time bc; do
  command -v "$tool" >/dev/null || { echo "export.sh: $tool is missing" >&2; exit 1; }
done
mapfile -t FILES < <(find "$CORPUS" -maxdepth 1 -name 'h12_*.heic' | sort)
N=${#FILES[@]}
[ "$N" -gt 0 ] || { echo "export.sh: no h12_*.heic in $CORPUS" >&2; exit 1; }
TMP=$(mktemp -d "${TMPDIR:-/tmp}/intake-export-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT

"$INTAKE" import --library "$TMP/lib" "${FILES[@]}" >/dev/null
mapfile -t IDS < <("$INTAKE" list --library "$TMP/lib" --json | python3 -c '
import json, sys
rows = [json.loads(line) for line in sys.stdin]
by_name = {row["name"]: row["id"] for row in rows}
for path in sys.argv[1:]:
    print(by_name[path.rsplit("/", 1)[-1]])
' "${FILES[@]}")

# The per-photo loops, each a script of its own so that /usr/bin/time measures it whole.
cat >"$TMP/intake-full.sh" <<EOF
for id in ${IDS[*]}; do "$INTAKE" export --library "$TMP/lib" "\$id" "\$1/\$id.jpg" --as jpeg >/dev/null; done
EOF
cat >"$TMP/intake-2048.sh" <<EOF
for id in ${IDS[*]}; do
  "$INTAKE" export --library "$TMP/lib" "\$id" "\$1/\$id.jpg" --as jpeg --max-size 2048 >/dev/null
done
EOF
cat >"$TMP/vips-full.sh" <<EOF
for file in ${FILES[*]}; do vips copy "\$file" "\$1/\$(basename "\$file").jpg[Q=90]"; done
EOF
cat >"$TMP/vips-2048.sh" <<EOF
for file in ${FILES[*]}; do vipsthumbnail "\$file" -s 2048 -o "\$1/%s.jpg[Q=90]"; done
EOF

# run NAME: ROUNDS rounds of the script NAME; sets WALL and CPU (ms per photo, medians) and RSS (MiB, largest).
run() {
  local name=$1 walls=() cpus=() rss=0 round wall user sys kib
  for ((round = 0; round < ROUNDS; round++)); do
    rm -rf "$TMP/out" && mkdir -p "$TMP/out"
    sync
    /usr/bin/time -f "%e %U %S %M" -o "$TMP/time" bash "$TMP/$name.sh" "$TMP/out"
    read -r wall user sys kib <"$TMP/time"
    walls+=("$(echo "$wall * 1000 / $N" | bc -l)")
    cpus+=("$(echo "($user + $sys) * 1000 / $N" | bc -l)")
    ((kib > rss)) && rss=$kib
  done
  WALL=$(printf '%s\n' "${walls[@]}" | sort -g | sed -n "$(((ROUNDS + 1) / 2))p")
  CPU=$(printf '%s\n' "${cpus[@]}" | sort -g | sed -n "$(((ROUNDS + 1) / 2))p")
  RSS=$(echo "$rss / 1024" | bc -l)
}

echo "export.sh: $N photos (12 MP HEIC), $ROUNDS rounds, load average $(cut -d' ' -f1-3 /proc/loadavg)"
printf "%-8s %-34s %9s %9s %8s %8s\n" size tool "wall ms" "cpu ms" "RSS MiB" "ratio"
for size in full 2048; do
  run "vips-$size"
  vw=$WALL vc=$CPU vr=$RSS
  run "intake-$size"
  reference="vips copy x.heic x.jpg"
  [ "$size" = 2048 ] && reference="vipsthumbnail x.heic -s 2048"
  printf "%-8s %-34s %9.1f %9.1f %8.1f\n" "$size" "$reference" "$vw" "$vc" "$vr"
  printf "%-8s %-34s %9.1f %9.1f %8.1f %7.2fx\n" "$size" "intake export --as jpeg" "$WALL" "$CPU" "$RSS" \
    "$(echo "$WALL / $vw" | bc -l)"
done
# What the last intake round wrote keeps what the sources said (a spot check of one photo).
first=$(find "$TMP/out" -name '*.jpg' | sort | head -1)
echo "spot check $(basename "$first"): $(exiftool -s3 -ImageSize -Orientation -DateTimeOriginal -Model "$first" | tr '\n' ' ')"
