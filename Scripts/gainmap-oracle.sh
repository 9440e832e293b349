#!/usr/bin/env bash
# gainmap-oracle.sh EXIFTOOL
# Records exiftool's reading of the gain-map fixtures in Tests/PhotoMetadataTests/GainMapFixtures/exiftool.json,
# which GainMapJPEGTests compares `hdrGainMap` with. EXIFTOOL must know the ISO 21496-1 APP2 segment
# (`APP2:UniformResourceName`, exiftool 12.7x and later; Debian 12's 12.57 does not): a checkout of
# ExifTool's own repository runs as it is (pure Perl). With `-ee` the MPF images are read as Doc2, Doc3 ….
set -euo pipefail
EXIFTOOL=${1:?usage: gainmap-oracle.sh PATH_TO_EXIFTOOL (12.7x or later)}
cd "$(dirname "$0")/../Tests/PhotoMetadataTests/GainMapFixtures"
"$EXIFTOOL" -ee -a -G3:1 -j -ExifToolVersion -XMP-hdrgm:Version -XMP-HDRGainMap:HDRGainMapVersion \
  -XMP-apdi:AuxiliaryImageType -APP2:UniformResourceName -MPImageType ./*.jpg | sed 's/[[:space:]]*$//' >exiftool.json
echo "wrote $(pwd)/exiftool.json ($("$EXIFTOOL" -ver))"
