#!/usr/bin/env bash
# renditions.sh CORPUS
# Times renditions on the benchmark corpus (shared/bench/make-corpus.sh) against the reference tools, in one run.
#   For the 12 MP JPEG (j12_*.jpg), 48 MP JPEG (j48_*.jpg) and HEIC (h12_*.heic) sets, at 320 and 1024 px:
#     intake thumbnail      all files of the set in one process, one file per core (its default)
#     vipsthumbnail         all files in one process, as it is usually run (one file at a time)
#     vipsthumbnail x N     the files dealt to N processes (N = cores): a like-for-like parallel figure
#     convert -thumbnail    ImageMagick, one process per file, as it is used
#   wall time per photo, CPU time per photo (user + system) and peak RSS (largest single process);
#   then the import of the 12 MP JPEG set with 320 px renditions (photos/s), and without, for context;
#   then the targets of issue 4, each marked met or MISSED.
# Every tool writes JPEG at quality 82 without metadata, like intake. Numbers depend on what else the machine
# runs: the load average at the start is printed; quote figures from a quiet machine.
# Env: INTAKE (default the release build of Scripts/build-release.sh), CONVERT (default /usr/bin/convert: the real
#      ImageMagick, not a wrapper earlier in PATH), JOBS (default: nproc).
set -euo pipefail
export LC_ALL=C
CORPUS=${1:?usage: Benchmarks/renditions.sh CORPUS}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
INTAKE=${INTAKE:-$("$ROOT/Scripts/build-release.sh" 2>/dev/null)}
export CONVERT=${CONVERT:-/usr/bin/convert}
JOBS=${JOBS:-$(nproc)}
for tool in vipsthumbnail "$CONVERT" /usr/bin/time bc; do
  command -v "$tool" >/dev/null || { echo "renditions.sh: $tool is missing" >&2; exit 1; }
done
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# measure OUTDIR COMMAND...: runs COMMAND with OUTDIR empty; sets WALL and CPU (s) and RSS (MiB).
measure() {
  local out=$1
  shift
  rm -rf "$out" && mkdir -p "$out"
  sync
  if ! /usr/bin/time -f "%e %U %S %M" -o "$TMP/time" "$@" >"$TMP/stdout" 2>"$TMP/stderr"; then
    echo "renditions.sh: failed: $1 ..." >&2
    tail -3 "$TMP/stderr" >&2
  fi
  local user sys kib
  read -r WALL user sys kib <"$TMP/time"
  CPU=$(echo "$user + $sys" | bc -l)
  RSS=$(echo "$kib / 1024" | bc -l)
}

# convert_each SIZE OUTDIR FILE...
convert_each() {
  local size=$1 out=$2
  shift 2
  for file in "$@"; do
    "$CONVERT" "$file" -thumbnail "${size}x${size}" -quality 82 -strip "$out/$(basename "$file").jpg"
  done
}
# vips_split SIZE OUTDIR JOBS FILE...: the files dealt round-robin to JOBS vipsthumbnail processes.
vips_split() {
  local size=$1 out=$2 jobs=$3
  shift 3
  local i k file
  for ((i = 0; i < jobs; i++)); do
    local part=()
    k=0
    for file in "$@"; do
      ((k % jobs == i)) && part+=("$file")
      k=$((k + 1))
    done
    if [ ${#part[@]} -gt 0 ]; then
      vipsthumbnail "${part[@]}" -s "$size" -o "$out/%s.jpg[Q=82,strip,optimize_coding]" &
    fi
  done
  wait
}
export -f convert_each vips_split

# row SET SIZE TOOL COUNT [VERSUS...]: one line of the table; VERSUS are the wall times intake is compared with.
row() {
  local set=$1 size=$2 tool=$3 n=$4
  shift 4
  local versus="" other
  for other in "$@"; do versus+=$(printf " %6.2fx" "$(echo "$other / $WALL" | bc -l)"); done
  printf "%-4s %5s  %-20s %9.1f %9.1f %7.1f %s\n" "$set" "$size" "$tool" \
    "$(echo "$WALL * 1000 / $n" | bc -l)" "$(echo "$CPU * 1000 / $n" | bc -l)" "$RSS" "$versus"
}

echo "renditions.sh: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at start"
echo "  $("$INTAKE" version), $(vips --version), ImageMagick $("$CONVERT" -version | head -1 | cut -d' ' -f3)"
measure "$TMP/base" "$INTAKE" version
# Every tool reads the files from the page cache: otherwise the first tool of the first set also pays the disk.
find "$CORPUS" -maxdepth 1 -type f \( -name 'j12_*' -o -name 'j48_*' -o -name 'h12_*' \) -exec cat {} + >/dev/null
base_rss=$RSS
"$CONVERT" -size 64x48 xc:gray "$TMP/tiny.jpg"
measure "$TMP/tiny" "$INTAKE" thumbnail "$TMP/tiny.jpg" --size 16 --out "$TMP/tiny"
echo "  intake's RSS: $(printf "%.1f" "$base_rss") MB before any thumbnail (Swift runtime, Foundation);" \
  "$(printf "%.1f" "$RSS") MB after a 64 x 48 px one (libvips and its ~100 libraries, loaded at the first" \
  "decode). The rest of each RSS figure below is decoding."
echo
printf "%-4s %5s  %-20s %9s %9s %7s %s\n" "set" "size" "tool" "ms/photo" "CPU ms" "RSS MB" \
  "  intake faster than: vipsthumbnail, vipsthumbnail x $JOBS, convert"
declare -A RATIO RATIO_N OURS_RSS OURS_RSS1
for spec in j12:jpg j48:jpg h12:heic; do
  set=${spec%%:*}
  mapfile -t files < <(find "$CORPUS" -maxdepth 1 -name "${set}_*.${spec##*:}" | sort)
  n=${#files[@]}
  [ "$n" -gt 0 ] || { echo "renditions.sh: no ${set} files in $CORPUS" >&2; continue; }
  for size in 320 1024; do
    measure "$TMP/ours" "$INTAKE" thumbnail "${files[@]}" --size "$size" --out "$TMP/ours"
    o_wall=$WALL o_cpu=$CPU o_rss=$RSS
    previews=$(grep -vc "from the primary image" "$TMP/stdout" || true)
    made=$(find "$TMP/ours" -name '*.jpg' | wc -l)
    measure "$TMP/vips" vipsthumbnail "${files[@]}" -s "$size" -o "$TMP/vips/%s.jpg[Q=82,strip,optimize_coding]"
    v_wall=$WALL v_cpu=$CPU v_rss=$RSS
    measure "$TMP/vipsn" bash -c 'vips_split "$@"' _ "$size" "$TMP/vipsn" "$JOBS" "${files[@]}"
    p_wall=$WALL p_cpu=$CPU p_rss=$RSS
    measure "$TMP/im" bash -c 'convert_each "$@"' _ "$size" "$TMP/im" "${files[@]}"
    i_wall=$WALL i_cpu=$CPU i_rss=$RSS
    WALL=$o_wall CPU=$o_cpu RSS=$o_rss
    row "$set" "$size" "intake thumbnail" "$n" "$v_wall" "$p_wall" "$i_wall"
    RATIO[$set-$size]=$(echo "$v_wall / $o_wall" | bc -l)
    RATIO_N[$set-$size]=$(echo "$p_wall / $o_wall" | bc -l)
    OURS_RSS[$set-$size]=$o_rss
    WALL=$v_wall CPU=$v_cpu RSS=$v_rss
    row "" "" "vipsthumbnail" "$n"
    WALL=$p_wall CPU=$p_cpu RSS=$p_rss
    row "" "" "vipsthumbnail x $JOBS" "$n"
    WALL=$i_wall CPU=$i_cpu RSS=$i_rss
    row "" "" "convert -thumbnail" "$n"
    if [ "$set" = j48 ]; then
      # One decode at a time: the memory floor, at the cost of the second core.
      measure "$TMP/ours1" "$INTAKE" thumbnail "${files[@]}" --size "$size" --out "$TMP/ours1" --jobs 1
      row "" "" "intake ... --jobs 1" "$n"
      OURS_RSS1[$set-$size]=$RSS
    fi
    echo "                 ($made of $n made by intake; $previews from an embedded preview)"
  done
done

echo
mapfile -t j12 < <(find "$CORPUS" -maxdepth 1 -name 'j12_*.jpg' | sort)
measure "$TMP/lib1" "$INTAKE" import --library "$TMP/lib1" --rendition-size 320 "${j12[@]}"
import_rate=$(echo "${#j12[@]} / $WALL" | bc -l)
renditions=$(find "$TMP/lib1/renditions" -name '*-320.jpg' | wc -l)
printf "import %d x 12 MP JPEG with 320 px renditions: %.2f s, %.1f photos/s, CPU %.2f s, RSS %.1f MB (%d renditions)\n" \
  "${#j12[@]}" "$WALL" "$import_rate" "$CPU" "$RSS" "$renditions"
measure "$TMP/lib2" "$INTAKE" import --library "$TMP/lib2" --no-renditions "${j12[@]}"
printf "import %d x 12 MP JPEG without renditions:     %.2f s, %.1f photos/s, CPU %.2f s, RSS %.1f MB\n" \
  "${#j12[@]}" "$WALL" "$(echo "${#j12[@]} / $WALL" | bc -l)" "$CPU" "$RSS"

echo
verdict() { if [ "$(echo "$1" | bc -l)" = 1 ]; then echo "met"; else echo "MISSED"; fi; }
r=${RATIO[j12-320]:-0}
printf "target: 12 MP JPEG at 320 px >= 1.3x faster than vipsthumbnail: %.2fx (%.2fx against vipsthumbnail x %s) %s\n" \
  "$r" "${RATIO_N[j12-320]:-0}" "$JOBS" "$(verdict "$r >= 1.3")"
r=${RATIO[h12-320]:-0}
printf "target: HEIC at 320 px >= 50x faster than vipsthumbnail: %.1fx (%.1fx against vipsthumbnail x %s) %s\n" \
  "$r" "${RATIO_N[h12-320]:-0}" "$JOBS" "$(verdict "$r >= 50")"
worst=$(printf "%s\n" "${OURS_RSS[j48-320]:-999}" "${OURS_RSS[j48-1024]:-999}" | sort -g | tail -1)
printf "target: peak RSS on 48 MP JPEG <= 64 MB: %.1f MB %s (320 px: %.1f MB, 1024 px: %.1f MB; with --jobs 1: %.1f / %.1f MB)\n" \
  "$worst" "$(verdict "$worst <= 64")" "${OURS_RSS[j48-320]:-0}" "${OURS_RSS[j48-1024]:-0}" \
  "${OURS_RSS1[j48-320]:-0}" "${OURS_RSS1[j48-1024]:-0}"
printf "target: import with 320 px renditions >= 60 photos/s: %.1f photos/s %s\n" "$import_rate" \
  "$(verdict "$import_rate >= 60")"
