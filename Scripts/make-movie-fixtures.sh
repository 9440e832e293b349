#!/usr/bin/env bash
# make-movie-fixtures.sh [OUTDIR]
# Makes the small movies the poster tests use (Tests/PhotoIntakeTests/Fixtures/Movies by default), from the
# imaging fixtures' upright scene (red top-left, green top-right, blue bottom-left, yellow bottom-right; see
# make-imaging-fixtures.sh), so a poster is checked against reference.png by colour like a photo rendition.
# Needs Debian packages ffmpeg (libx264, libx265) and libimage-exiftool-perl.
#
# This ffmpeg (5.1) has no -display_rotation (6.0 added it) and no longer turns `-metadata:s:v rotate=` into a
# matrix, so exiftool writes the track header's matrix (QuickTime:Rotation, ISO/IEC 14496-12 §8.3.2 tkhd).
#   rotation-0.mov / -90 / -180 / -270   H.264, 192x128 scene displayed upright: the frames are stored turned by
#                            the inverse of the display matrix (Rotation=90: displayed turned 90 deg clockwise)
#   hevc.mp4                 HEVC (hvc1) in MP4, the scene upright, 3 s
#   black-start.mov          4 s: black for the first 2.5 s, then the scene (a poster must skip the black)
#   truncated.mov            rotation-0.mov cut in half: its movie header (at the end) is gone
#   garbled.mp4              faststart MP4 whose media data is overwritten with noise, header intact
#   live-photo.jpg + live-photo.mov   a Live Photo pair: the still's Apple MakerNote content identifier (tag
#                            0x0011) and the movie's com.apple.quicktime.content.identifier are the same UUID
set -euo pipefail
export LC_ALL=C TZ=UTC
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${1:-$ROOT/Tests/PhotoIntakeTests/Fixtures/Movies}
SCENE=$ROOT/Tests/PhotoIntakeTests/Fixtures/Imaging/reference.png
for tool in ffmpeg exiftool python3; do
  command -v "$tool" >/dev/null || { echo "make-movie-fixtures: $tool is missing" >&2; exit 1; }
done
mkdir -p "$OUT"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# -fflags/-flags bitexact and one thread: the same bytes on every run.
h264() { ffmpeg -v error -y "$@" -c:v libx264 -preset ultrafast -threads 1 -pix_fmt yuv420p -g 10 \
  -fflags +bitexact -flags:v +bitexact -an; }
scene() { ffmpeg -v error -y -loop 1 -framerate 10 -i "$SCENE" -t "$1" -vf "scale=192:128:flags=neighbor${2:+,$2}" \
  -f rawvideo -pix_fmt yuv420p "$3"; }

# The stored frames turned by the inverse of the display rotation (transpose=2: 90 deg anti-clockwise).
for spec in "0:" "90:transpose=2" "180:hflip,vflip" "270:transpose=1"; do
  angle=${spec%%:*}
  filter=${spec#*:}
  size=192x128
  [ "$angle" = 90 ] || [ "$angle" = 270 ] && size=128x192
  scene 2 "$filter" "$TMP/scene-$angle.yuv"
  h264 -f rawvideo -pix_fmt yuv420p -s "$size" -r 10 -i "$TMP/scene-$angle.yuv" "$OUT/rotation-$angle.mov"
  [ "$angle" = 0 ] || exiftool -q -overwrite_original "-Rotation=$angle" "$OUT/rotation-$angle.mov"
done

ffmpeg -v error -y -loop 1 -framerate 10 -i "$SCENE" -t 3 -vf scale=192:128:flags=neighbor -c:v libx265 \
  -preset ultrafast -x265-params log-level=none:pools=1:frame-threads=1 -pix_fmt yuv420p -tag:v hvc1 \
  -fflags +bitexact -flags:v +bitexact -an "$OUT/hevc.mp4"

h264 -f lavfi -i "color=black:size=192x128:rate=10:duration=2.5" -loop 1 -framerate 10 -t 1.5 -i "$SCENE" \
  -filter_complex "[1:v]scale=192:128:flags=neighbor,format=yuv420p[s];[0:v]format=yuv420p[b];[b][s]concat=n=2:v=1" \
  "$OUT/black-start.mov"

size=$(stat -c %s "$OUT/rotation-0.mov")
head -c $((size / 2)) "$OUT/rotation-0.mov" >"$OUT/truncated.mov"

h264 -f rawvideo -pix_fmt yuv420p -s 192x128 -r 10 -i "$TMP/scene-0.yuv" -movflags +faststart "$TMP/garbled.mp4"
python3 - "$TMP/garbled.mp4" "$OUT/garbled.mp4" <<'PY'
import random, struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
# Walk the top-level boxes to the mdat; overwrite its payload (all but the first 16 bytes) with noise.
offset = 0
while offset + 8 <= len(data):
    size, kind = struct.unpack(">I4s", data[offset:offset + 8])
    if kind == b"mdat":
        rng = random.Random(15)
        for i in range(offset + 24, offset + size):
            data[i] = rng.randrange(256)
        break
    offset += size
open(sys.argv[2], "wb").write(data)
PY

# The Live Photo pair. exiftool writes an Apple MakerNote as a block (the IFD's offsets count from the note's
# start, AppleMakerNote.swift), with the identifier in tag 0x0011.
ID=3F1C6E2A-8B4D-4C5E-9A7B-2D1E0F3A4B5C
ffmpeg -v error -y -i "$SCENE" -vf scale=192:128:flags=neighbor -fflags +bitexact -flags +bitexact \
  "$OUT/live-photo.jpg"
python3 - "$ID" "$TMP/note.bin" <<'PY'
import struct, sys
text = sys.argv[1].encode() + b"\0"
note = b"Apple iOS\0" + b"\0\x01" + b"MM" + struct.pack(">H", 2)
note += struct.pack(">HHII", 0x0001, 9, 1, 14)              # maker note version, inline
note += struct.pack(">HHII", 0x0011, 2, len(text), 14 + 2 + 2 * 12 + 4)
note += struct.pack(">I", 0) + text
open(sys.argv[2], "wb").write(note)
PY
exiftool -q -overwrite_original -Make=Apple "-Model=iPhone 15" "-DateTimeOriginal=2024:05:06 07:08:09" \
  "-MakerNotes<=$TMP/note.bin" "$OUT/live-photo.jpg"
h264 -f rawvideo -pix_fmt yuv420p -s 192x128 -r 10 -i "$TMP/scene-0.yuv" -movflags use_metadata_tags \
  -metadata com.apple.quicktime.content.identifier="$ID" "$OUT/live-photo.mov"

# An audio file whose only picture is its cover art (an attached picture): no movie to take a poster of.
ffmpeg -v error -y -f lavfi -i "sine=frequency=440:duration=0.5" -i "$SCENE" -map 0:a -map 1:v -c:a aac -c:v png \
  -vf scale=48:32:flags=neighbor -disposition:v:0 attached_pic -fflags +bitexact -flags +bitexact \
  "$OUT/audio-cover.m4a"

# Black throughout (every point is looked at), in a track time base of 1/(2^31 - 1) s, with a movie header
# (rewritten as version 1) declaring 9 x 10^12 s: three quarters of it is beyond int64 ticks.
h264 -f lavfi -i "color=black:size=64x64:rate=10:duration=1" -video_track_timescale 2147483647 "$TMP/long.mov"
python3 - "$TMP/long.mov" "$OUT/long-duration.mov" <<'PY'
import struct, sys
data = bytearray(open(sys.argv[1], "rb").read())
moov, mvhd = data.find(b"moov") - 4, data.find(b"mvhd") - 4
assert moov > data.find(b"mdat"), "the movie header is last: growing it moves no sample"
size = struct.unpack(">I", data[mvhd:mvhd + 4])[0]
assert data[mvhd + 8] == 0, "a version 0 header"
body = bytes([1, 0, 0, 0]) + struct.pack(">QQIQ", 0, 0, 1, 9_000_000_000_000) + data[mvhd + 28:mvhd + size]
box = struct.pack(">I", len(body) + 8) + b"mvhd" + body
data[moov:moov + 4] = struct.pack(">I", struct.unpack(">I", data[moov:moov + 4])[0] + len(box) - size)
data[mvhd:mvhd + size] = box
open(sys.argv[2], "wb").write(data)
PY

# 2 x 2 pixels: swscale writes past the end of so short a row (movie_poster.c pads its rows).
h264 -f lavfi -i "color=red:size=2x2:rate=10:duration=1" "$OUT/tiny.mov"

ls -l "$OUT"
