#!/usr/bin/env python3
"""damage-fixture.py KIND IN OUT

Copies a real file (one of our fixtures, made by real tools) with the damage real files were seen with
(issue 26): test fixtures for "a damaged part costs only that part". Each KIND keeps the image's own facts
(its size, the headers a decoder needs) and damages something else, as found in the public sets the
realfiles benchmark reads (exiftool still reads the size of every one of them).

  tiff-entries      classic TIFF: IFD0's Make value pointed past the end, Model given a count of 2^32-1
                    ASCII bytes, and the next-IFD pointer aimed at a table the file cuts short
  png-chunk-length  PNG: a chunk right after IHDR whose length exceeds 2^31-1 (PNG 3rd ed. 5.3)
  gif-cut           GIF: cut inside the data of its last image, trailer lost
  jpeg-soi-bytes    JPEG: 18 stray bytes right after SOI, and a stuffed 0xFF 0x00 between two segments
                    (libjpeg skips both: "extraneous bytes before marker")
  jpeg-cut-scan     JPEG: cut inside its scan header (SOS), before any entropy-coded data
  jpeg-stray-frame  JPEG: 19 stray bytes before the DQT that precedes the frame header (libjpeg skips them),
                    and every 0xFF after the frame header but EOI's overwritten, so that nothing after it leads
                    to a marker (ImageTestSuite's c8bc97….jpg has this shape; its stray bytes precede a DHT)
  isobmff-cut       HEIF or MP4/QuickTime with 'meta'/'moov' before 'mdat': cut in the middle of 'mdat'
"""
import struct
import sys


def tiff_entries(data):
    e = {b"II": "<", b"MM": ">"}[bytes(data[:2])]
    (ifd0,) = struct.unpack(e + "I", data[4:8])
    (count,) = struct.unpack(e + "H", data[ifd0:ifd0 + 2])
    found = set()
    for i in range(count):
        at = ifd0 + 2 + 12 * i
        tag, typ, n = struct.unpack(e + "HHI", data[at:at + 8])
        if tag == 0x010F:  # Make: its value offset past the end of the file
            data[at + 8:at + 12] = struct.pack(e + "I", len(data) + 4096)
            found.add(tag)
        elif tag == 0x0110:  # Model: a count no file can hold
            data[at + 4:at + 8] = struct.pack(e + "I", 0xFFFFFFFF)
            found.add(tag)
    if found != {0x010F, 0x0110}:
        sys.exit("damage-fixture: IFD0 needs Make and Model entries")
    # A next IFD whose count says 40 entries, of which the file holds one: 2 + 12 bytes before the end.
    next_at = ifd0 + 2 + 12 * count
    data += struct.pack(e + "H", 40) + bytes(12)
    data[next_at:next_at + 4] = struct.pack(e + "I", len(data) - 14)
    return data


def png_chunk_length(data):
    ihdr_end = 8 + 8 + 13 + 4
    return data[:ihdr_end] + struct.pack(">I", 0x8F000000) + b"tEXt" + data[ihdr_end:]


def gif_cut(data):
    if data[-1:] != b";":
        sys.exit("damage-fixture: the GIF does not end with its trailer")
    return data[:len(data) - 12]


def jpeg_soi_bytes(data):
    stray = bytes([0x00, 0xE0, 0x00, 0x10, 0x4A, 0xAC, 0x49, 0x46, 0x00, 0x01, 0x01, 0x01, 0x00, 0x90, 0x00,
                   0x90, 0x00, 0x00])
    out = data[:2] + stray + data[2:]
    # A stuffed zero before the first DQT segment.
    at = out.find(b"\xff\xdb")
    if at < 0:
        sys.exit("damage-fixture: no DQT segment")
    return out[:at] + b"\xff\x00" + out[at:]


def jpeg_cut_scan(data):
    at = 2
    while at + 4 <= len(data):
        marker, length = data[at + 1], struct.unpack(">H", data[at + 2:at + 4])[0]
        if marker == 0xDA:
            return data[:at + 6]
        at += 2 + length
    sys.exit("damage-fixture: no scan header")


def jpeg_stray_frame(data):
    at, tables = 2, []
    while at + 4 <= len(data):
        marker, length = data[at + 1], struct.unpack(">H", data[at + 2:at + 4])[0]
        if marker == 0xC0:
            break
        if marker == 0xDB:
            tables.append(at)
        at += 2 + length
    else:
        sys.exit("damage-fixture: no baseline frame header")
    if not tables or tables[-1] + 2 + struct.unpack(">H", data[tables[-1] + 2:tables[-1] + 4])[0] != at:
        sys.exit("damage-fixture: no DQT right before the frame header")
    end = at + 2 + struct.unpack(">H", data[at + 2:at + 4])[0]
    # A comment whose 0xFF was overwritten: 19 bytes that belong to no segment.
    stray = b"\xd4\xfe\x00\x11" + b"marker overwritten"[:15]
    if data[-2:] != b"\xff\xd9":
        sys.exit("damage-fixture: the JPEG does not end with EOI")
    # EOI stays: exiftool reads a segment only once it has found the marker after it.
    tail = data[end:-2].replace(b"\xff", b"\xd4") + data[-2:]
    return data[:tables[-1]] + stray + data[tables[-1]:end] + tail


def isobmff_cut(data):
    at = 0
    seen = set()
    while at + 8 <= len(data):
        size, kind = struct.unpack(">I4s", data[at:at + 8])
        if kind == b"mdat":
            if not seen & {b"meta", b"moov"}:
                sys.exit("damage-fixture: 'mdat' comes before 'meta'/'moov'")
            return data[:at + size // 2]
        seen.add(kind)
        at += size
    sys.exit("damage-fixture: no 'mdat' box")


KINDS = {"tiff-entries": tiff_entries, "png-chunk-length": png_chunk_length, "gif-cut": gif_cut,
         "jpeg-soi-bytes": jpeg_soi_bytes, "jpeg-cut-scan": jpeg_cut_scan,
         "jpeg-stray-frame": jpeg_stray_frame, "isobmff-cut": isobmff_cut}

if len(sys.argv) != 4 or sys.argv[1] not in KINDS:
    sys.exit(__doc__)
source = bytearray(open(sys.argv[2], "rb").read())
open(sys.argv[3], "wb").write(bytes(KINDS[sys.argv[1]](source)))
