#!/usr/bin/env python3
"""Makes Tests/PhotoMetadataTests/GainMapFixtures/ from public gain-map JPEGs, at a small size.

usage: make-gainmap-fixtures.py LIBAVIF_TESTDATA ANDROID_SAMPLES_ASSETS ULTRA_HDR_SAMPLES OUT_DIR

  LIBAVIF_TESTDATA        a folder with AOMediaCodec/libavif tests/data/*.jpg (BSD-2-Clause)
  ANDROID_SAMPLES_ASSETS  a folder with android/platform-samples
                          samples/graphics/ultrahdr/src/main/assets/gainmaps/*.jpg (Apache-2.0)
  ULTRA_HDR_SAMPLES       a folder with MishaalRahmanGH/Ultra_HDR_Samples "SDR Emulation/*.jpg" (CC BY 4.0)

Needs `pip install imagecodecs numpy` (imagecodecs bundles libultrahdr, which writes the ISO 21496-1 file) and
exiftool (Debian's, to write the made-up GPS). The folders are read, never copied into the repo: only the
re-encoded files are written to OUT_DIR. GainMapFixtures/README.md says where each fixture comes from.

Re-encoding keeps the gain-map structure: every image of the file (the primary and each MPF image, CIPA
DC-007 §5.2) keeps its APPn and COM segments byte for byte (EXIF, XMP, extended XMP, ICC, MPF, ISO 21496-1),
and only its frame — quantisation and Huffman tables, SOF, scans — is replaced by the same image scaled down
and encoded again. Then the MPF index entries (sizes, offsets; in the file's own byte order) and the GContainer
`Item:Length` of the primary XMP are set to the new sizes. EXIF PixelX/YDimension keep the original size.
"""

import os
import re
import struct
import subprocess
import sys

import imagecodecs
import numpy as np


def segments(data, start):
    """(marker, start, end) of the segments from SOI at `start` up to and including the first SOS."""
    assert data[start : start + 2] == b"\xff\xd8", "no SOI"
    pos = start + 2
    out = []
    while True:
        while data[pos] == 0xFF and data[pos + 1] == 0xFF:
            pos += 1
        assert data[pos] == 0xFF, f"no marker at {pos}"
        marker = data[pos + 1]
        length = struct.unpack(">H", data[pos + 2 : pos + 4])[0]
        out.append((marker, pos, pos + 2 + length))
        pos += 2 + length
        if marker == 0xDA:
            return out


def metadata_segments(data, start):
    """The APPn and COM segments of the image at `start`, verbatim, in order."""
    return [data[s:e] for m, s, e in segments(data, start) if 0xE0 <= m <= 0xEF or m == 0xFE]


def mpf_entries(data):
    """(tiff_header_position, byte_order, [(entry_position, size, offset)]) of the primary's MPF, or None."""
    for marker, s, e in segments(data, 0):
        if marker == 0xE2 and data[s + 4 : s + 8] == b"MPF\0":
            base = s + 8
            order = "<" if data[base : base + 2] == b"II" else ">"
            ifd = base + struct.unpack(order + "I", data[base + 4 : base + 8])[0]
            count = struct.unpack(order + "H", data[ifd : ifd + 2])[0]
            for i in range(count):
                tag, typ, n, value = struct.unpack(order + "HHII", data[ifd + 2 + 12 * i : ifd + 14 + 12 * i])
                if tag == 0xB002:
                    entries = []
                    for k in range(n // 16):
                        p = base + value + 16 * k
                        _, size, offset = struct.unpack(order + "III", data[p : p + 12])
                        entries.append((p, size, offset))
                    return base, order, entries
    return None


def images_of(data):
    """The file's images: the primary (up to the second image, since writers such as exiftool leave its MPF
    size stale) and each MPF image by its offset and size."""
    mpf = mpf_entries(data)
    if mpf is None:
        return [data]
    base, _, entries = mpf
    others = [data[base + offset : base + offset + size] for _, size, offset in entries[1:]]
    return [data[: base + entries[1][2]]] + others


def scaled(pixels, factor):
    """Block average by an integer factor (the edges that do not fill a block are cut)."""
    if factor == 1:
        return pixels
    h, w = pixels.shape[0] // factor * factor, pixels.shape[1] // factor * factor
    p = pixels[:h, :w].astype(np.float32)
    shape = (h // factor, factor, w // factor, factor) + p.shape[2:]
    return np.clip(p.reshape(shape).mean(axis=(1, 3)) + 0.5, 0, 255).astype(np.uint8)


def frame(pixels, quality):
    """The segments after SOI and the APPn segments of a fresh baseline encode: DQT, SOF0, DHT, SOS, scan, EOI."""
    encoded = bytes(imagecodecs.jpeg8_encode(pixels, level=quality))
    first = next(s for m, s, e in segments(encoded, 0) if not (0xE0 <= m <= 0xEF or m == 0xFE))
    return encoded[first:]


EXTENDED_XMP = b"http://ns.adobe.com/xmp/extension/\0"


def without_extended_xmp(data):
    """The file without its extended XMP (Adobe XMP Part 3 §1.1.3.1) and the main packet's pointer to it: on
    a Pixel it is the HDR+ maker note (400 KB), nothing of the gain map. The MPF offsets are set again."""
    primary, *others = images_of(data)
    kept = []
    for seg in metadata_segments(primary, 0):
        if seg[1] == 0xE1 and seg[4:].startswith(EXTENDED_XMP):
            continue
        if seg[1] == 0xE1 and b"xmpNote:HasExtendedXMP" in seg:
            body = re.sub(rb'\s*xmpNote:HasExtendedXMP="[0-9A-F]*"', b"", seg[4:])
            seg = seg[:2] + struct.pack(">H", len(body) + 2) + body
        kept.append(seg)
    frame_start = next(s for m, s, e in segments(primary, 0) if not (0xE0 <= m <= 0xEF or m == 0xFE))
    primary = b"\xff\xd8" + b"".join(kept) + primary[frame_start:]
    return with_mpf(primary, others) if others else primary


def reencode(data, factor, quality=80):
    """The file with each image scaled down by `factor`, its metadata segments kept (see the header)."""
    images = []
    for image in images_of(data):
        pixels = imagecodecs.jpeg8_decode(image)
        images.append(b"\xff\xd8" + b"".join(metadata_segments(image, 0)) + frame(scaled(pixels, factor), quality))
    if len(images) == 1:
        return images[0]
    # The gain map's length in the primary's GContainer directory (Ultra HDR 1.0, "Container"), in its APP1.
    head = b"\xff\xd8" + b"".join(gcontainer_length(seg, len(images[1])) for seg in metadata_segments(data, 0))
    primary = head + images[0][2 + len(b"".join(metadata_segments(data, 0))) :]
    return with_mpf(primary, images[1:])


def gcontainer_length(segment, length):
    """An APP1 XMP segment with the GainMap item's `Item:Length` set to `length`, its segment length fixed."""
    if segment[1] != 0xE1 or b"Item:Length" not in segment:
        return segment
    body = re.sub(rb'(Item:Semantic="GainMap"[^>]*?Item:Length=")\d+"', lambda m: m.group(1) + b'%d"' % length, segment[4:])
    body = re.sub(rb'(Item:Length=")\d+("[^>]*?Item:Semantic="GainMap")', lambda m: m.group(1) + b"%d" % length + m.group(2), body)
    return segment[:2] + struct.pack(">H", len(body) + 2) + body


def with_mpf(primary, others):
    """The primary with its MPF entries set for `others` following it in order, then `others`."""
    primary = bytearray(primary)
    base, order, entries = mpf_entries(bytes(primary))
    assert len(entries) == len(others) + 1, "MPF lists another number of images"
    position = len(primary)
    for k, (p, _, _) in enumerate(entries):
        size, offset = (len(primary), 0) if k == 0 else (len(others[k - 1]), position - base)
        position += 0 if k == 0 else size
        primary[p + 4 : p + 12] = struct.pack(order + "II", size, offset)
    return bytes(primary) + b"".join(others)


def drop_segments(data, start, predicate):
    """The image at `start` (which must be the whole file) without the metadata segments `predicate` picks."""
    out = bytearray(data[:2])
    segs = segments(data, start)
    for marker, s, e in segs:
        if not predicate(marker, data[s + 4 : e]):
            out += data[s:e]
    return bytes(out) + data[segs[-1][2] :]


def iso_made(source, out):
    """An ISO 21496-1 JPEG written by libultrahdr from a real photo, with highlights lifted above SDR white."""
    srgb = imagecodecs.jpeg8_decode(open(source, "rb").read()).astype(np.float32) / 255
    srgb = scaled((srgb * 255).astype(np.uint8), 2).astype(np.float32) / 255
    linear = np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)
    lum = linear.mean(axis=2, keepdims=True)
    hdr = linear * (1 + 3 * np.clip((lum - 0.5) / 0.5, 0, 1) ** 2)
    rgba = np.concatenate([hdr, np.ones_like(lum)], axis=2).astype(np.float16)
    write(out, bytes(imagecodecs.ultrahdr_encode(rgba, level=80)))


def write(path, data):
    with open(path, "wb") as f:
        f.write(data)


def add_gps(path, lat, lon):
    """Made-up coordinates, so the location stripper has something to remove (exiftool moves the MPF images)."""
    subprocess.run(["exiftool", "-q", "-overwrite_original", f"-GPSLatitude={abs(lat)}", f"-GPSLatitudeRef={'N' if lat >= 0 else 'S'}",
                    f"-GPSLongitude={abs(lon)}", f"-GPSLongitudeRef={'E' if lon >= 0 else 'W'}", path], check=True)
    # exiftool moves the MPF images' offsets but leaves the primary's own MPF size as it was: set it again.
    primary, *others = images_of(open(path, "rb").read())
    write(path, with_mpf(primary, others) if others else primary)


def main():
    libavif, android, mishaal, out = sys.argv[1:5]
    os.makedirs(out, exist_ok=True)
    read = lambda *p: open(os.path.join(*p), "rb").read()

    # Apple: iPhone 13 mini JPEGs (MPF gain map image with Apple's HDRGainMap XMP), the newer XMP and the older.
    write(f"{out}/apple-iphone.jpg", reencode(read(libavif, "apple_gainmap_new.jpg"), 2))
    add_gps(f"{out}/apple-iphone.jpg", 37.33182, -122.03118)
    write(f"{out}/apple-iphone-older-xmp.jpg", reencode(read(libavif, "apple_gainmap_old.jpg"), 2))
    # Ultra HDR from a Pixel 8 (hdrgm XMP in both images, GContainer, real GPS), its extended XMP left out.
    write(f"{out}/ultrahdr-pixel8.jpg", reencode(without_extended_xmp(read(android, "night_highrise.jpg")), 16))
    # Adobe Camera Raw's JPEG with a gain map (hdrgm XMP, real GPS), and libavif's big-endian MPF edit.
    write(f"{out}/adobe-camera-raw.jpg", reencode(read(libavif, "seine_sdr_gainmap_srgb.jpg"), 2))
    write(f"{out}/ultrahdr-mpf-big-endian.jpg", reencode(read(libavif, "paris_exif_xmp_gainmap_bigendian.jpg"), 2))
    # Photoshop's save of a Pixel 6 Pro Ultra HDR photo: hdrgm XMP in the primary, the gain map image gone.
    write(f"{out}/ultrahdr-gainmap-dropped.jpg", reencode(read(mishaal, "Ultra_HDR_Samples_Emulated_01_hdr.jpg"), 16))

    # ISO 21496-1: libultrahdr 1.4 puts the version-only APP2 in the primary, the full metadata in the gain map.
    iso = f"{out}/iso-libultrahdr.jpg"
    iso_made(os.path.join(libavif, "paris_exif_xmp_icc.jpg"), iso)
    add_gps(iso, 48.85837, 2.29448)
    data = read(iso)
    is_iso = lambda m, payload: m == 0xE2 and payload.startswith(b"urn:iso:std:iso:ts:21496:-1\0")
    # Only the gain map image's APP2 kept: the primary's is dropped and the MPF entries set again.
    primary, gainmap = images_of(data)
    write(f"{out}/iso-gainmap-image-only.jpg", with_mpf(drop_segments(primary, 0, is_iso), [gainmap]))
    # Only the primary's APP2 kept: the file cut after the primary image (what an editor that drops trailing
    # images leaves); its MPF index still points past the end.
    write(f"{out}/iso-gainmap-dropped.jpg", primary)

if __name__ == "__main__":
    main()
