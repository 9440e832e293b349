#!/usr/bin/env bash
# make-shape-fixtures.sh [OUTDIR]
# The real-camera shapes of issue 26, as small files next to the other metadata fixtures (default OUTDIR:
# Tests/PhotoMetadataTests/Fixtures), each named shape-*: made with ffmpeg, exiftool and heif-enc
# (libheif-examples), then cut or patched box by box by Scripts/heif-shapes.py into the forms phones and
# older writers produce. Only the shape-* files are replaced. Debian 12 packages: ffmpeg,
# libimage-exiftool-perl, libheif-examples.
#   shape-exif-no-offset.heic   Exif item starting with the TIFF header (no 4-byte offset)
#   shape-exif-empty.heic       Exif item with no bytes (as in an iPhone Live Photo still)
#   shape-alpha.heic            alpha auxiliary image (heif-enc of an RGBA PNG)
#   shape-gainmap-apple.heic    auxiliary image of type urn:com:apple:photo:2020:aux:hdrgainmap
#   shape-gainmap-iso.heic      the same plus an ISO 21496-1 `tmap` item (iOS 18 writes both)
#   shape-depth.heic            depth auxiliary image (urn:mpeg:hevc:2015:auxid:2)
#   shape-stereo.heic           `ster` entity group of two images (spatial photos)
#   shape-sequence.heics        image sequence: three HEVC frames in a `pict` track, brand msf1, no `meta`
set -euo pipefail
export LC_ALL=C TZ=UTC
cd "$(dirname "$0")/.."
OUT=${1:-Tests/PhotoMetadataTests/Fixtures}
for tool in ffmpeg exiftool heif-enc python3; do
  command -v $tool >/dev/null || { echo "$tool is missing: apt-get install ffmpeg libimage-exiftool-perl libheif-examples" >&2; exit 1; }
done
mkdir -p "$OUT"
rm -f "$OUT"/shape-*
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
PATCH="python3 Scripts/heif-shapes.py"
FRAME="ffmpeg -v error -y -f lavfi -i testsrc=size=64x48:rate=1 -frames:v 1 -fflags +bitexact -flags +bitexact"

$FRAME -q:v 3 "$TMP/base.jpg"
exiftool -q -overwrite_original -Make=Shape -Model=ExifForms "-DateTimeOriginal=2024:05:06 07:08:09" \
  "$TMP/base.jpg"
heif-enc -q 60 "$TMP/base.jpg" -o "$TMP/exif.heic" >/dev/null
$PATCH exif-raw "$TMP/exif.heic" "$OUT/shape-exif-no-offset.heic"
$PATCH exif-empty "$TMP/exif.heic" "$OUT/shape-exif-empty.heic"

$FRAME -vf format=rgba,colorchannelmixer=aa=0.5 "$TMP/rgba.png"
heif-enc -q 60 "$TMP/rgba.png" -o "$OUT/shape-alpha.heic" >/dev/null
$PATCH aux-urn "$OUT/shape-alpha.heic" "$OUT/shape-gainmap-apple.heic" urn:com:apple:photo:2020:aux:hdrgainmap
$PATCH tmap "$OUT/shape-gainmap-apple.heic" "$OUT/shape-gainmap-iso.heic"
$PATCH aux-urn "$OUT/shape-alpha.heic" "$OUT/shape-depth.heic" urn:mpeg:hevc:2015:auxid:2
$PATCH stereo "$OUT/shape-alpha.heic" "$OUT/shape-stereo.heic"

ffmpeg -v error -y -f lavfi -i testsrc=size=64x48:rate=10 -frames:v 3 -c:v libx265 -x265-params log-level=none \
  -tag:v hvc1 -fflags +bitexact -flags +bitexact -map_metadata -1 "$TMP/sequence.mp4"
$PATCH sequence "$TMP/sequence.mp4" "$OUT/shape-sequence.heics"
ls -l "$OUT"/shape-*
