#!/usr/bin/env bash
# make-metadata-fixtures.sh [OUTDIR]
# Makes the small real files the PhotoMetadata tests read (default OUTDIR: Tests/PhotoMetadataTests/Fixtures).
# Uses Debian 12 tools only: imagemagick (convert), libimage-exiftool-perl, libheif-examples (heif-enc, x265 and
# aom), ffmpeg. Files crafted byte by byte (MPF, Apple MakerNote, HEIF irot/imir, malformed inputs) are built
# by the tests themselves (Tests/PhotoMetadataTests/Support/), not here.
# Determinism: fixed inputs, -strip, no timestamps from the tools (ffmpeg -fflags +bitexact, png exclude date).
set -euo pipefail
export LC_ALL=C TZ=UTC
cd "$(dirname "$0")/.."
OUT=${1:-Tests/PhotoMetadataTests/Fixtures}
IM=/usr/bin/convert
if [ "$(id -u)" = 0 ] && ! { [ -x $IM ] && command -v exiftool >/dev/null && command -v heif-enc >/dev/null \
  && command -v ffmpeg >/dev/null; }; then
  apt-get update -qq
  apt-get install -y -qq imagemagick libimage-exiftool-perl libheif-examples ffmpeg >/dev/null
fi
mkdir -p "$OUT"
rm -f "$OUT"/*
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
ICC=/usr/share/color/icc/ghostscript/srgb.icc

# A small picture with distinct corners, so that a wrong orientation would be visible.
$IM -size 64x48 gradient:'#d04020-#2040d0' -fill white -draw 'rectangle 0,0 15,11' -fill black \
  -draw 'rectangle 48,36 63,47' -strip "$TMP/base.png"

et() { exiftool -q -overwrite_original -n "$@"; }

# JPEG, one per EXIF orientation (EXIF 2.32 §4.6.5), with dates, offsets and GPS in all four quadrants.
LATS=(48.858370 -33.856784 40.689247 -22.951916 35.658581 -0.000001 64.147209 0.5)
LONS=(2.294481 151.215297 -74.044502 -43.210487 139.745433 -0.000001 -21.942400 179.999999)
OFFS=("+02:00" "+10:00" "-04:00" "-03:00" "+09:00" "+00:00" "+05:45" "-09:30")
for o in 1 2 3 4 5 6 7 8; do
  i=$((o - 1)); lat=${LATS[$i]}; lon=${LONS[$i]}
  f="$OUT/jpeg-orientation-$o.jpg"
  $IM "$TMP/base.png" -quality 85 -sampling-factor 2x2 "$f"
  et "-Make=Maker $o" "-Model=Model $o" "-LensModel=Lens $o" "-Orientation=$o" \
    "-DateTimeOriginal=2023:0$o:1$o 1$o:2$o:3$o" "-OffsetTimeOriginal=${OFFS[$i]}" "-SubSecTimeOriginal=$((o * 111))" \
    "-GPSLatitude=${lat#-}" "-GPSLatitudeRef=$([ "${lat:0:1}" = - ] && echo S || echo N)" \
    "-GPSLongitude=${lon#-}" "-GPSLongitudeRef=$([ "${lon:0:1}" = - ] && echo W || echo E)" \
    "-GPSAltitude=$((o * 37)).25" "-GPSAltitudeRef=$((o % 2))" "-GPSDateStamp=2023:0$o:1$o" \
    "-GPSTimeStamp=0$o:00:00" "$f"
done

# JPEG with an EXIF IFD1 thumbnail (EXIF 2.32 §4.5.4) and an ICC profile, no GPS.
f="$OUT/jpeg-thumbnail-icc.jpg"
$IM "$TMP/base.png" -resize 320x240 -quality 85 "$f"
$IM "$TMP/base.png" -resize 32x24 -quality 70 -strip "$TMP/thumb.jpg"
et "-ThumbnailImage<=$TMP/thumb.jpg" "-ICC_Profile<=$ICC" -Make=Canon "-Model=Canon EOS R5" \
  "-DateTimeOriginal=2021:12:31 23:59:59" "$f"

# JPEG whose location is only in XMP (exif:GPS* properties, XMP Specification Part 2 §3.3), no date offset.
f="$OUT/jpeg-xmp-gps.jpg"
$IM "$TMP/base.png" -quality 85 "$f"
et "-XMP-exif:GPSLatitude=-12.3456789" "-XMP-exif:GPSLongitude=-45.6789012" "-XMP-exif:GPSAltitude=12.5" \
  "-XMP-exif:GPSAltitudeRef=1" "-DateTimeOriginal=2020:02:29 12:00:00" "$f"

# JPEG without any metadata.
$IM "$TMP/base.png" -quality 85 -strip "$OUT/jpeg-plain.jpg"

# JPEG with extraneous bytes between its segments (libjpeg skips them with a warning).
python3 Scripts/jpeg-extraneous-bytes.py "$OUT/jpeg-orientation-6.jpg" "$OUT/jpeg-extraneous-bytes.jpg"

# PNG with eXIf (PNG 1.5 extension) and with XMP in iTXt.
f="$OUT/png-exif.png"
$IM "$TMP/base.png" -define png:exclude-chunks=date,time "$f"
et "-Make=Google" "-Model=Pixel 7" "-DateTimeOriginal=2022:07:04 09:08:07" "-OffsetTimeOriginal=-07:00" \
  "-GPSLatitude=37.422" "-GPSLatitudeRef=N" "-GPSLongitude=122.084" "-GPSLongitudeRef=W" "-Orientation=6" "$f"
f="$OUT/png-xmp.png"
$IM "$TMP/base.png" -define png:exclude-chunks=date,time "$f"
et "-XMP-exif:GPSLatitude=51.5007" "-XMP-exif:GPSLongitude=-0.1246" "-XMP-tiff:Orientation=3" "$f"

# GIF with XMP (GIF89a application extension "XMP DataXMP").
f="$OUT/gif-xmp.gif"
$IM "$TMP/base.png" "$f"
et "-XMP-exif:GPSLatitude=-33.8688" "-XMP-exif:GPSLongitude=151.2093" "$f"

# WebP: lossy (VP8) with EXIF and XMP, lossless (VP8L) plain.
f="$OUT/webp-lossy-exif.webp"
$IM "$TMP/base.png" -quality 80 "$f"
et "-Make=Samsung" "-Model=SM-S911B" "-Orientation=8" "-DateTimeOriginal=2024:01:02 03:04:05" \
  "-OffsetTimeOriginal=+01:00" "-GPSLatitude=59.3293" "-GPSLatitudeRef=N" "-GPSLongitude=18.0686" \
  "-GPSLongitudeRef=E" "-XMP-exif:GPSLatitude=59.3293" "-XMP-exif:GPSLongitude=18.0686" "$f"
$IM "$TMP/base.png" -define webp:lossless=true "$OUT/webp-lossless.webp"

# TIFF, little- and big-endian, with GPS; a TIFF with DNGVersion stands in for a DNG (sniffing, IFD0 facts).
for e in LSB MSB; do
  f="$OUT/tiff-$([ $e = LSB ] && echo little || echo big)-endian.tif"
  $IM "$TMP/base.png" -endian $e -compress none "$f"
  et "-Make=Nikon" "-Model=D850" "-Orientation=6" "-DateTimeOriginal=2019:05:06 07:08:09" \
    "-OffsetTimeOriginal=+05:30" "-GPSLatitude=28.6139" "-GPSLatitudeRef=N" "-GPSLongitude=77.2090" \
    "-GPSLongitudeRef=E" "-GPSAltitude=216" "$f"
done
# BigTIFF (magic 43, 8-byte offsets), both byte orders: the same two TIFFs rewritten by tiff-to-bigtiff.py,
# since exiftool reads BigTIFF but does not write it.
python3 Scripts/tiff-to-bigtiff.py "$OUT/tiff-little-endian.tif" "$OUT/bigtiff-little-endian.tif"
python3 Scripts/tiff-to-bigtiff.py "$OUT/tiff-big-endian.tif" "$OUT/bigtiff-big-endian.tif" --big-endian
# A TIFF whose Exif IFD pointer leads past the end of the file: a damaged optional part (issue 26).
python3 Scripts/tiff-break-pointer.py "$OUT/tiff-little-endian.tif" "$OUT/tiff-bad-exif-pointer.tif" 0x8769
f="$OUT/dng-like.dng"
$IM "$TMP/base.png" -compress none "$TMP/dng.tif"
cp "$TMP/dng.tif" "$f"
et "-DNGVersion=1 4 0 0" "-Make=Leica" "-Model=M11" "-DateTimeOriginal=2022:10:11 12:13:14" "$f"

# HEIC with EXIF (copied by heif-enc from the JPEG) and a 32 px thumbnail item; AVIF.
$IM "$TMP/base.png" -quality 95 "$TMP/heic-src.jpg"
et "-Make=Apple" "-Model=iPhone 15 Pro" "-LensModel=iPhone 15 Pro back camera" \
  "-DateTimeOriginal=2023:09:22 08:30:00" "-OffsetTimeOriginal=-05:00" "-SubSecTimeOriginal=250" \
  "-GPSLatitude=40.758" "-GPSLatitudeRef=N" "-GPSLongitude=73.9855" "-GPSLongitudeRef=W" \
  "-GPSAltitude=10" "$TMP/heic-src.jpg"
heif-enc -q 50 -t 32 -o "$OUT/heic-exif-thumbnail.heic" "$TMP/heic-src.jpg" >/dev/null
et "-XMP-exif:GPSLatitude=40.758" "-XMP-exif:GPSLongitude=-73.9855" "$OUT/heic-exif-thumbnail.heic"
heif-enc -A -q 50 -o "$OUT/avif-exif.avif" "$TMP/heic-src.jpg" >/dev/null

# Movies: ©xyz from -metadata location (QuickTime user data), Apple keys from use_metadata_tags (QTFF "Metadata").
ff() { ffmpeg -v error -y -f lavfi -i testsrc=size=64x48:rate=10:duration=0.5 -c:v libx264 -preset ultrafast \
  -pix_fmt yuv420p -fflags +bitexact -flags:v +bitexact "$@"; }
ff -metadata location="+48.8584+002.2945/" -metadata creation_time=2023-06-01T10:00:00Z "$OUT/mp4-location.mp4"
# ffmpeg 5.1 no longer writes a rotation matrix from `-metadata rotate`; the tests patch `tkhd` themselves.
ff -metadata location="-33.8568+151.2153+005.000/" -metadata creation_time=2022-02-03T04:05:06Z \
  "$OUT/mov-location.mov"
ff -movflags use_metadata_tags \
  -metadata com.apple.quicktime.location.ISO6709="+37.3349-122.0090+030.000/" \
  -metadata com.apple.quicktime.content.identifier="5A9F7D5C-1B2E-4F3A-9C8D-0E1F2A3B4C5D" \
  -metadata com.apple.quicktime.creationdate="2023-06-01T12:00:00+0200" \
  -metadata com.apple.quicktime.make=Apple -metadata com.apple.quicktime.model="iPhone 15" \
  "$OUT/mov-apple-keys.mov"

# Real files damaged as files in the public sets were (issue 26), by Scripts/damage-fixture.py: each keeps the
# image's own facts, which exiftool still reads, and costs only the damaged part.
D="python3 Scripts/damage-fixture.py"
$D tiff-entries "$OUT/tiff-little-endian.tif" "$OUT/damaged-tiff-entries.tif"
$D png-chunk-length "$OUT/png-exif.png" "$OUT/damaged-png-chunk-length.png"
$D gif-cut "$OUT/gif-xmp.gif" "$OUT/damaged-gif-cut.gif"
$D jpeg-soi-bytes "$OUT/jpeg-orientation-6.jpg" "$OUT/damaged-jpeg-soi-bytes.jpg"
$D jpeg-cut-scan "$OUT/jpeg-thumbnail-icc.jpg" "$OUT/damaged-jpeg-cut-scan.jpg"
$D jpeg-stray-frame "$OUT/jpeg-orientation-6.jpg" "$OUT/damaged-jpeg-stray-frame.jpg"
$D isobmff-cut "$OUT/heic-exif-thumbnail.heic" "$OUT/damaged-heic-cut.heic"
# A movie with its 'moov' first (as cameras and +faststart write it), cut inside its media data.
ffmpeg -v error -y -i "$OUT/mov-apple-keys.mov" -map 0 -c copy -map_metadata 0 -movflags +faststart+use_metadata_tags \
  -fflags +bitexact "$TMP/faststart.mov"
$D isobmff-cut "$TMP/faststart.mov" "$OUT/damaged-mov-cut.mov"

ls -l "$OUT"
