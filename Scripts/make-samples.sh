#!/usr/bin/env bash
# make-samples.sh [OUTDIR]   (default: Samples)
# Makes the small sample photos bundled in Samples/ that the README's first command imports.
# Every picture is drawn by this script (ImageMagick: a sky gradient, fractal "hills" and a sun, seeded), so the
# samples are ours and released under CC0 1.0 (see SAMPLES-LICENSE). Camera EXIF, capture dates, GPS positions
# and orientations are written with exiftool to make them look like phone photos.
# Needs: imagemagick, libimage-exiftool-perl, libheif-examples (heif-enc). Deterministic for those versions.
set -euo pipefail
export LC_ALL=C TZ=UTC
OUT=${1:-Samples}
mkdir -p "$OUT"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# scene SEED SKY1 SKY2 HILLS1 HILLS2 OUT: a 640x480 landscape.
scene() {
  convert -size 640x300 "gradient:$2-$3" \
    \( -size 640x180 -seed "$1" plasma:fractal -colorspace Gray -blur 0x2 +level-colors "$4,$5" \) -append \
    -fill '#fff4c0' -draw "circle $((100 + $1 % 400)),90 $((130 + $1 % 400)),90" \
    -seed "$1" -attenuate 0.4 +noise Gaussian "$6"
}

camera() { # FILE MAKE MODEL DATE OFFSET [LAT LON]
  local args=(-q -overwrite_original "-Make=$2" "-Model=$3" "-DateTimeOriginal=$4" "-CreateDate=$4"
    "-OffsetTimeOriginal=$5" "-Software=PhotoIntake samples")
  if [ $# -ge 7 ]; then
    args+=("-GPSLatitude=${6#-}" "-GPSLatitudeRef=$([ "${6:0:1}" = - ] && echo S || echo N)"
      "-GPSLongitude=${7#-}" "-GPSLongitudeRef=$([ "${7:0:1}" = - ] && echo W || echo E)")
  fi
  exiftool "${args[@]}" "$1"
}

scene 11 '#5b8fd6' '#dbe9f7' '#3f7d3a' '#9bbf5a' "$tmp/lake.png"
scene 23 '#f49a5b' '#fde3b0' '#6b4f2a' '#b08a4f' "$tmp/dunes.png"
scene 37 '#233a6e' '#8fa3c8' '#2f4f4f' '#708090' "$tmp/dusk.png"
scene 41 '#87ceeb' '#ffffff' '#228b22' '#adff2f' "$tmp/meadow.png"
scene 53 '#9fb7c9' '#eef2f5' '#555555' '#bbbbbb' "$tmp/rocks.png"

# A JPEG from an iPhone, held in portrait: pixels stored sideways, Orientation 6 (EXIF 2.32 4.6.5).
convert "$tmp/lake.png" -rotate -90 -quality 85 -sampling-factor 2x2,1x1,1x1 "$OUT/IMG_0001.JPG"
camera "$OUT/IMG_0001.JPG" Apple "iPhone 15 Pro" "2024:07:14 09:12:31" "+02:00" 46.0207 7.7491
exiftool -q -overwrite_original -Orientation=6 -n "$OUT/IMG_0001.JPG"
# A HEIC, as iPhones store photos (heif-enc keeps the EXIF of its JPEG input).
convert "$tmp/dunes.png" -quality 90 "$tmp/dunes.jpg"
camera "$tmp/dunes.jpg" Apple "iPhone 13" "2023:03:02 17:45:00" "+04:00" 23.4162 -15.9574
heif-enc -q 55 -o "$OUT/IMG_0002.HEIC" "$tmp/dunes.jpg" >/dev/null
# An Android JPEG in the southern and western hemispheres.
convert "$tmp/dusk.png" -quality 85 "$OUT/PXL_20230918_201502.jpg"
camera "$OUT/PXL_20230918_201502.jpg" Google "Pixel 7" "2023:09:18 20:15:02" "-03:00" -34.6037 -58.3816
# A screenshot-like PNG, a WebP from a messaging app, and a GIF.
convert "$tmp/meadow.png" -resize 50% -blur 0x1 -colors 128 "$OUT/Screenshot 2024-01-05.png"
convert "$tmp/rocks.png" -quality 80 "$OUT/shared-photo.webp"
convert "$tmp/meadow.png" -resize 160x120 -colors 64 "$OUT/sticker.gif"
# The same photo twice (a re-shared copy): the library stores it once.
cp "$OUT/IMG_0001.JPG" "$OUT/resent-IMG_0001.JPG"
ls -l "$OUT"
