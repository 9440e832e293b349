#!/usr/bin/env bash
# make-imaging-fixtures.sh [OUTDIR]
# Makes the small image files the imaging tests use (Tests/PhotoIntakeTests/Fixtures/Imaging by default).
# Needs Debian packages imagemagick, libimage-exiftool-perl, libheif-examples, webp, and python3 (for the
# containers no tool writes: MPF previews, HEIF irot, bombs).
#
# Every picture shows the same 4-colour scene, upright: red top-left, green top-right, blue bottom-left,
# yellow bottom-right. The four corners tell all eight orientations apart (each of the eight turns and
# mirrors moves the corners differently), so a test compares a rendition with reference.png by colour.
#   reference.png            the upright scene, 96x64 (the reference the tests compare with)
#   orientation-N.jpg        N = 1..8: the scene stored turned/mirrored by the inverse of EXIF orientation N,
#                            tagged N (the reference made by turning the pixels)
#   scene.png / .webp / .gif / .heic   the scene in each format (PNG with an alpha border, GIF animated, HEIC
#                            with a 48 px thumbnail item)
#   scene-grey16.png         16-bit greyscale PNG
#   irot.heic                stored turned 90 deg clockwise, with HEIF irot (angle 1 = 90 deg anti-clockwise)
#                            on the primary image and its thumbnail
#   exif-thumbnail.jpg       640x480 scene with a 160x120 EXIF thumbnail drawn in magenta
#   letterbox-thumbnail.jpg  600x400 scene whose 160x120 EXIF thumbnail has black bars (must not be used)
#   mpf-preview.jpg          1280x960 scene with a 640x480 MPF large thumbnail (type 0x010001) in cyan
#   mpf-gainmap.jpg          the same with the second image typed 0 (like a gain map: must not be used)
#   bomb.png/.jpg/.gif/.webp/.heic   headers declaring 65535x65535 (WebP 16384x16384, HEIC 60000x60000)
#   truncated.jpg/.heic/.png, garbage.jpg, not-an-image.txt   damaged inputs
set -euo pipefail
export LC_ALL=C TZ=UTC
OUT=${1:-$(cd "$(dirname "$0")/.." && pwd)/Tests/PhotoIntakeTests/Fixtures/Imaging}
IM=${IM:-/usr/bin/convert}
[ -x "$IM" ] || IM=convert
for tool in exiftool heif-enc cwebp python3; do
  command -v "$tool" >/dev/null || { echo "make-imaging-fixtures: $tool is missing" >&2; exit 1; }
done
mkdir -p "$OUT"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
PNG_OPTS=(-strip -define png:exclude-chunk=date,time)

# scene WIDTH HEIGHT [TINT] > file: the four quadrants (TINT overrides all four, for previews).
scene() {
  local w=$1 h=$2 out=$3 tint=${4:-}
  local hw=$((w / 2)) hh=$((h / 2))
  if [ -n "$tint" ]; then
    "$IM" -size "${w}x${h}" "xc:$tint" "${PNG_OPTS[@]}" "$out"
  else
    "$IM" -size "${w}x${h}" xc:red \
      -fill lime -draw "rectangle $hw,0 $((w - 1)),$((hh - 1))" \
      -fill blue -draw "rectangle 0,$hh $((hw - 1)),$((h - 1))" \
      -fill yellow -draw "rectangle $hw,$hh $((w - 1)),$((h - 1))" "${PNG_OPTS[@]}" "$out"
  fi
}

scene 96 64 "$OUT/reference.png"

# Orientation N: store the scene transformed by the inverse of what N asks a viewer to do.
inverse=("" "" "-flop" "-rotate 180" "-flip" "-transpose" "-rotate 270" "-transverse" "-rotate 90")
for n in 1 2 3 4 5 6 7 8; do
  # shellcheck disable=SC2086
  "$IM" "$OUT/reference.png" ${inverse[$n]} -quality 95 -strip "$OUT/orientation-$n.jpg"
  exiftool -q -overwrite_original -Orientation#="$n" "$OUT/orientation-$n.jpg"
done

# Formats.
scene 128 96 "$TMP/scene.png"
"$IM" "$TMP/scene.png" -bordercolor none -border 8 "${PNG_OPTS[@]}" "$OUT/scene.png"
"$IM" "$TMP/scene.png" -colorspace Gray -depth 16 "${PNG_OPTS[@]}" "$OUT/scene-grey16.png"
cwebp -quiet -q 90 "$TMP/scene.png" -o "$OUT/scene.webp"
"$IM" -delay 50 "$TMP/scene.png" \( "$TMP/scene.png" -negate \) -loop 0 "$OUT/scene.gif"
"$IM" "$TMP/scene.png" -quality 95 "$TMP/scene.jpg"
heif-enc -q 90 -t 48 -o "$OUT/scene.heic" "$TMP/scene.jpg" >/dev/null
"$IM" "$TMP/scene.png" -rotate 90 -quality 95 "$TMP/turned.jpg"
heif-enc -q 90 -t 48 -o "$TMP/turned.heic" "$TMP/turned.jpg" >/dev/null

# Embedded previews: drawn in another colour so that a test can tell by pixels which image was decoded.
scene 640 480 "$TMP/big.png"
"$IM" "$TMP/big.png" -quality 90 "$OUT/exif-thumbnail.jpg"
scene 160 120 "$TMP/thumb.png" magenta
"$IM" "$TMP/thumb.png" -quality 80 "$TMP/thumb.jpg"
exiftool -q -overwrite_original -Make=PhotoIntake -Model="Fixture Camera" \
  -DateTimeOriginal="2024:05:06 07:08:09" -OffsetTimeOriginal=+02:00 \
  "-ThumbnailImage<=$TMP/thumb.jpg" "$OUT/exif-thumbnail.jpg"
scene 600 400 "$TMP/wide.png"
"$IM" "$TMP/wide.png" -quality 90 "$OUT/letterbox-thumbnail.jpg"
"$IM" -size 160x120 xc:black -fill magenta -draw "rectangle 0,13 159,106" -quality 80 "$TMP/letterbox.jpg"
exiftool -q -overwrite_original "-ThumbnailImage<=$TMP/letterbox.jpg" "$OUT/letterbox-thumbnail.jpg"
scene 1280 960 "$TMP/huge.png"
"$IM" "$TMP/huge.png" -quality 85 "$TMP/huge.jpg"
scene 640 480 "$TMP/preview.png" cyan
"$IM" "$TMP/preview.png" -quality 80 "$TMP/preview.jpg"

python3 - "$OUT" "$TMP" <<'PY'
import struct, sys, zlib
out, tmp = sys.argv[1], sys.argv[2]

def mpf(primary, preview, type_code):
    """Primary JPEG + APP2 MPF index (CIPA DC-007 §5.2) + a second JPEG appended."""
    assert primary[:2] == b"\xff\xd8"
    # MPF APP2 payload: "MPF\0", then a little-endian TIFF header and the MP Index IFD with 3 entries.
    entries_offset = 8 + 2 + 3 * 12 + 4
    def payload(primary_size, preview_offset):
        ifd = struct.pack("<H", 3)
        ifd += struct.pack("<HHI4s", 0xB000, 7, 4, b"0100")
        ifd += struct.pack("<HHII", 0xB001, 4, 1, 2)
        ifd += struct.pack("<HHII", 0xB002, 7, 32, entries_offset)
        ifd += struct.pack("<I", 0)
        mp = struct.pack("<IIIHH", 0x20030000, primary_size, 0, 0, 0)
        mp += struct.pack("<IIIHH", type_code, len(preview), preview_offset, 0, 0)
        return b"MPF\0" + b"II*\0" + struct.pack("<I", 8) + ifd + mp
    size = len(payload(0, 0))
    segment_length = size + 2
    app2_at = 2
    tiff_at = app2_at + 4 + 4  # marker, length, "MPF\0"
    primary_size = len(primary) + 2 + segment_length
    body = payload(primary_size, primary_size - tiff_at)
    return primary[:2] + b"\xff\xe2" + struct.pack(">H", segment_length) + body + primary[2:] + preview

huge = open(f"{tmp}/huge.jpg", "rb").read()
preview = open(f"{tmp}/preview.jpg", "rb").read()
open(f"{out}/mpf-preview.jpg", "wb").write(mpf(huge, preview, 0x010001))
open(f"{out}/mpf-gainmap.jpg", "wb").write(mpf(huge, preview, 0x000000))

def boxes(data, start, end):
    at = start
    while at + 8 <= end:
        size, kind = struct.unpack(">I4s", data[at:at + 8])
        header = 8
        if size == 1:
            size = struct.unpack(">Q", data[at + 8:at + 16])[0]
            header = 16
        elif size == 0:
            size = end - at
        yield at, size, header, kind.decode("latin-1")
        at += size

def find(data, start, end, kind):
    for at, size, header, k in boxes(data, start, end):
        if k == kind:
            return at, size, header
    raise SystemExit(f"no {kind} box")

def add_irot(data, angle):
    """Adds an irot property to every displayable item with an ispe (not to grid tiles, which the grid's own
    transformation covers), growing meta and shifting iloc offsets."""
    data = bytearray(data)
    meta_at, meta_size, _ = find(data, 0, len(data), "meta")
    meta_end = meta_at + meta_size
    iref_at, iref_size, _ = find(data, meta_at + 12, meta_end, "iref")
    iref_wide = data[iref_at + 8] != 0
    tiles = set()
    for at, size, header, kind in boxes(data, iref_at + 12, iref_at + iref_size):
        if kind != "dimg":
            continue
        n = 4 if iref_wide else 2
        count = struct.unpack(">H", data[at + 8 + n:at + 10 + n])[0]
        for i in range(count):
            start = at + 10 + n + i * n
            tiles.add(int.from_bytes(data[start:start + n], "big"))
    iprp_at, iprp_size, _ = find(data, meta_at + 12, meta_end, "iprp")
    ipco_at, ipco_size, _ = find(data, iprp_at + 8, iprp_at + iprp_size, "ipco")
    ipma_at, ipma_size, _ = find(data, iprp_at + 8, iprp_at + iprp_size, "ipma")
    props = list(boxes(data, ipco_at + 8, ipco_at + ipco_size))
    irot_index = len(props) + 1
    ispe_indices = {i + 1 for i, p in enumerate(props) if p[3] == "ispe"}
    version, flags = data[ipma_at + 8], int.from_bytes(data[ipma_at + 9:ipma_at + 12], "big")
    count = struct.unpack(">I", data[ipma_at + 12:ipma_at + 16])[0]
    wide = flags & 1
    out = bytearray(data[ipma_at + 8:ipma_at + 16])
    at = ipma_at + 16
    for _ in range(count):
        id_size = 2 if version < 1 else 4
        item = data[at:at + id_size]; at += id_size
        n = data[at]; at += 1
        assoc_size = 2 if wide else 1
        assoc = data[at:at + n * assoc_size]; at += n * assoc_size
        indices = [(int.from_bytes(assoc[i:i + assoc_size], "big") & (0x7FFF if wide else 0x7F))
                   for i in range(0, len(assoc), assoc_size)]
        if ispe_indices & set(indices) and int.from_bytes(item, "big") not in tiles:
            extra = (0x8000 | irot_index).to_bytes(2, "big") if wide else bytes([0x80 | irot_index])
            out += item + bytes([n + 1]) + assoc + extra
        else:
            out += item + bytes([n]) + assoc
    new_ipma = struct.pack(">I4s", 8 + len(out), b"ipma") + out
    irot = struct.pack(">I4sB", 9, b"irot", angle)
    delta = len(irot) + len(new_ipma) - ipma_size
    new = bytearray()
    new += data[:ipco_at] + struct.pack(">I", ipco_size + len(irot)) + data[ipco_at + 4:ipco_at + ipco_size] + irot
    new += data[ipco_at + ipco_size:ipma_at] + new_ipma + data[ipma_at + ipma_size:]
    struct.pack_into(">I", new, iprp_at, iprp_size + delta)
    struct.pack_into(">I", new, meta_at, meta_size + delta)
    # iloc (ISO/IEC 14496-12 §8.11.3): shift every file offset that points past the old meta box.
    iloc_at, iloc_size, _ = find(new, meta_at + 12, meta_end + delta, "iloc")
    v = new[iloc_at + 8]
    sizes = new[iloc_at + 12], new[iloc_at + 13]
    offset_size, length_size = sizes[0] >> 4, sizes[0] & 15
    base_size, index_size = sizes[1] >> 4, (sizes[1] & 15) if v in (1, 2) else 0
    at = iloc_at + 14
    if v < 2:
        items = struct.unpack(">H", new[at:at + 2])[0]; at += 2
    else:
        items = struct.unpack(">I", new[at:at + 4])[0]; at += 4
    def shift(at, size):
        if size == 0:
            return
        value = int.from_bytes(new[at:at + size], "big")
        if value >= meta_end:
            new[at:at + size] = (value + delta).to_bytes(size, "big")
    for _ in range(items):
        at += 2 if v < 2 else 4
        method = 0
        if v in (1, 2):
            method = struct.unpack(">H", new[at:at + 2])[0] & 15; at += 2
        at += 2  # data_reference_index
        if method == 0:
            shift(at, base_size)
        base_value = int.from_bytes(new[at:at + base_size], "big") if base_size else 0
        at += base_size
        extents = struct.unpack(">H", new[at:at + 2])[0]; at += 2
        for _ in range(extents):
            at += index_size
            if method == 0 and base_value == 0:
                shift(at, offset_size)
            at += offset_size + length_size
    return bytes(new)

turned = open(f"{tmp}/turned.heic", "rb").read()
open(f"{out}/irot.heic", "wb").write(add_irot(turned, 1))

# Bombs: headers declaring enormous images, with almost no data behind them.
def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
ihdr = struct.pack(">IIBBBBB", 65535, 65535, 8, 2, 0, 0, 0)
open(f"{out}/bomb.png", "wb").write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
                                    + chunk(b"IDAT", zlib.compress(b"\0" * 1024)) + chunk(b"IEND", b""))
sof = b"\xff\xc0" + struct.pack(">HBHHB", 17, 8, 65535, 65535, 3) + bytes([1, 0x22, 0, 2, 0x11, 0, 3, 0x11, 0])
# A scan header follows the frame, as in any real JPEG (a frame followed straight by EOI is not a JPEG at all).
sos = b"\xff\xda" + struct.pack(">HB", 12, 3) + bytes([1, 0, 2, 0x11, 3, 0x11]) + bytes([0, 63, 0])
open(f"{out}/bomb.jpg", "wb").write(b"\xff\xd8" + sof + sos + b"\x00" * 16 + b"\xff\xd9")
open(f"{out}/bomb.gif", "wb").write(b"GIF89a" + struct.pack("<HHBBB", 65535, 65535, 0, 0, 0) + b";")
vp8x = struct.pack("<B3x", 0) + (16383).to_bytes(3, "little") + (16383).to_bytes(3, "little")
webp = b"VP8X" + struct.pack("<I", len(vp8x)) + vp8x
open(f"{out}/bomb.webp", "wb").write(b"RIFF" + struct.pack("<I", 4 + len(webp)) + b"WEBP" + webp)
scene = bytearray(open(f"{out}/scene.heic", "rb").read())
at = 0
while True:
    at = scene.find(b"ispe", at)
    if at < 0:
        break
    struct.pack_into(">II", scene, at + 8, 60000, 60000)
    at += 4
open(f"{out}/bomb.heic", "wb").write(scene)

# Damaged inputs.
jpeg = open(f"{out}/exif-thumbnail.jpg", "rb").read()
open(f"{out}/truncated.jpg", "wb").write(jpeg[:len(jpeg) * 2 // 3])
heic = open(f"{out}/scene.heic", "rb").read()
open(f"{out}/truncated.heic", "wb").write(heic[:len(heic) - 400])
png = open(f"{out}/scene.png", "rb").read()
idat = png.find(b"IDAT")
open(f"{out}/truncated.png", "wb").write(png[:idat + 40])
open(f"{out}/garbage.jpg", "wb").write(b"\xff\xd8\xff\xe0" + bytes((i * 73 + 11) % 256 for i in range(600)))
open(f"{out}/not-an-image.txt", "wb").write(b"These are not the pixels you are looking for.\n")
PY
ls -l "$OUT" | awk 'NR > 1 { total += $5 } END { printf "make-imaging-fixtures: %d files, %d bytes\n", NR - 1, total }' >&2
