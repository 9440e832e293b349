#!/usr/bin/env bash
# posters.sh [MOVIES]
# Times movie posters against the ffmpeg tool, side by side in one run.
#   MOVIES (default /work/bench/movies) is filled on the first run with 10 H.264 and 10 HEVC clips, 1920x1080,
#   30 fps, 4 s, key frames every 2 s (phones write one every 1 to 2 s), made by ffmpeg from testsrc2 (moving
#   patterns; a different hue per clip).
#   For each set:
#     intake thumbnail x 1 process per movie   as ffmpeg is run below: the process start and library loading
#                                              counted per movie
#     intake thumbnail (one process)           all movies of the set in one process, one per core (its default)
#     ffmpeg -ss 1 -i clip -frames:v 1 -vf scale=320:-2 out.jpg   one process per movie: the same frame (our
#                                              poster of a 4 s clip is at 1 s), keyframe seek then decode
#                                              forward, as ours; with ffmpeg's default threads, and with
#                                              -threads 1 (ours decodes on one thread: renditions run one
#                                              movie per core)
#   wall and CPU time (user + system) per movie, and the ratio ffmpeg / intake.
# Env: INTAKE (default the release build of Scripts/build-release.sh), SIZE (default 320).
set -euo pipefail
export LC_ALL=C
MOVIES=${1:-/work/bench/movies}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
INTAKE=${INTAKE:-$("$ROOT/Scripts/build-release.sh" 2>/dev/null)}
SIZE=${SIZE:-320}
for tool in ffmpeg /usr/bin/time bc; do
  command -v "$tool" >/dev/null || { echo "posters.sh: $tool is missing" >&2; exit 1; }
done
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

mkdir -p "$MOVIES"
for i in $(seq -w 1 10); do
  source="testsrc2=size=1920x1080:rate=30:duration=4,hue=H=$i*0.6"
  [ -s "$MOVIES/h264_$i.mov" ] || ffmpeg -v error -y -f lavfi -i "$source" -c:v libx264 -preset veryfast -g 60 \
    -pix_fmt yuv420p "$MOVIES/h264_$i.mov"
  [ -s "$MOVIES/hevc_$i.mp4" ] || ffmpeg -v error -y -f lavfi -i "$source" -c:v libx265 -preset ultrafast \
    -x265-params log-level=none:keyint=60 -tag:v hvc1 -pix_fmt yuv420p "$MOVIES/hevc_$i.mp4"
done

# measure COMMAND...: sets WALL and CPU (s).
measure() {
  if ! /usr/bin/time -f "%e %U %S" -o "$TMP/time" "$@" >"$TMP/stdout" 2>"$TMP/stderr"; then
    echo "posters.sh: failed: $* " >&2
    tail -3 "$TMP/stderr" >&2
  fi
  local user sys
  read -r WALL user sys <"$TMP/time"
  CPU=$(echo "$user + $sys" | bc -l)
}
each_intake() {
  local out=$1
  shift
  for file in "$@"; do "$INTAKE" thumbnail "$file" --size "$SIZE" --out "$out/$(basename "$file").jpg" >/dev/null; done
}
each_ffmpeg() { # OUTDIR THREADS FILE...
  local out=$1 threads=$2
  shift 2
  for file in "$@"; do
    ffmpeg -v error -y -threads "$threads" -ss 1 -i "$file" -frames:v 1 -vf "scale=$SIZE:-2" -q:v 4 \
      "$out/$(basename "$file").jpg"
  done
}
export -f each_intake each_ffmpeg
export INTAKE SIZE

row() { # TOOL COUNT
  printf "%-44s %9.1f %9.1f\n" "$1" "$(echo "$WALL * 1000 / $2" | bc -l)" "$(echo "$CPU * 1000 / $2" | bc -l)"
}

echo "posters.sh: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at start"
echo "  $("$INTAKE" version), $(ffmpeg -version | head -1 | cut -d' ' -f1-3)"
cat "$MOVIES"/* >/dev/null
printf "%-44s %9s %9s\n" "" "ms/movie" "CPU ms"
for set in h264 hevc; do
  mapfile -t files < <(find "$MOVIES" -maxdepth 1 -name "${set}_*" | sort)
  n=${#files[@]}
  echo "$set: $n movies"
  rm -rf "$TMP/a" "$TMP/b" "$TMP/c" "$TMP/d" && mkdir -p "$TMP/a" "$TMP/b" "$TMP/c" "$TMP/d"
  measure bash -c 'each_intake "$@"' _ "$TMP/a" "${files[@]}"
  a_wall=$WALL
  row "  intake thumbnail, a process per movie" "$n"
  measure "$INTAKE" thumbnail "${files[@]}" --size "$SIZE" --out "$TMP/b"
  b_wall=$WALL
  row "  intake thumbnail, one process" "$n"
  measure bash -c 'each_ffmpeg "$@"' _ "$TMP/c" 0 "${files[@]}"
  c_wall=$WALL
  row "  ffmpeg -ss 1 -frames:v 1, a process each" "$n"
  measure bash -c 'each_ffmpeg "$@"' _ "$TMP/d" 1 "${files[@]}"
  d_wall=$WALL
  row "  the same with -threads 1" "$n"
  made=$(find "$TMP/a" "$TMP/b" "$TMP/c" "$TMP/d" -name '*.jpg' | wc -l)
  printf "  intake faster than ffmpeg: %.2fx (a process per movie), %.2fx (one process); %d of %d posters made\n" \
    "$(echo "$c_wall / $a_wall" | bc -l)" "$(echo "$c_wall / $b_wall" | bc -l)" "$made" $((4 * n))
  printf "  intake (a process per movie) faster than ffmpeg -threads 1: %.2fx\n" "$(echo "$d_wall / $a_wall" | bc -l)"
done
