#!/usr/bin/env python3
"""tiff-to-bigtiff.py IN.tif OUT.tif [--big-endian]

Rewrites a small classic TIFF (magic 42) as BigTIFF (magic 43: 8-byte offsets, 8-byte entry counts, 20-byte
entries, LONG8/IFD8 pointers), the way libtiff 4 lays it out, for test fixtures: exiftool reads BigTIFF but
cannot write it, so the tags are written by exiftool into a classic TIFF first and converted here.

Every IFD of IFD0's chain is copied with the Exif (0x8769), GPS (0x8825) and Interop (0xA005) IFDs it points
to; StripOffsets/TileOffsets are moved with their data and become LONG8; pointers become IFD8.
"""
import struct
import sys

TYPE_SIZES = {1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 13: 4, 16: 8, 17: 8, 18: 8}
POINTERS = {0x8769, 0x8825, 0xA005}
OFFSETS = {0x0111: 0x0117, 0x0144: 0x0145}  # StripOffsets -> StripByteCounts, TileOffsets -> TileByteCounts


def read_classic(data):
    e = {b"II": "<", b"MM": ">"}[data[:2]]
    assert struct.unpack(e + "H", data[2:4])[0] == 42, "not a classic TIFF"

    def ifd(offset):
        (count,) = struct.unpack(e + "H", data[offset:offset + 2])
        entries = []
        for i in range(count):
            at = offset + 2 + 12 * i
            tag, typ, n = struct.unpack(e + "HHI", data[at:at + 8])
            size = TYPE_SIZES[typ] * n
            where = at + 8 if size <= 4 else struct.unpack(e + "I", data[at + 8:at + 12])[0]
            entries.append([tag, typ, n, data[where:where + size]])
        (nxt,) = struct.unpack(e + "I", data[offset + 2 + 12 * count:offset + 6 + 12 * count])
        return entries, nxt

    def values(entry):
        tag, typ, n, raw = entry
        fmt = {3: "H", 4: "I", 13: "I"}[typ]
        return list(struct.unpack(e + fmt * n, raw))

    return e, ifd, values


def convert(data, big_endian):
    e, ifd, values = read_classic(data)
    out_e = ">" if big_endian else "<"
    chain, offset = [], struct.unpack(e + "I", data[4:8])[0]
    while offset:
        entries, offset = ifd(offset)
        chain.append(entries)
    out = bytearray((b"MM" if big_endian else b"II") + struct.pack(out_e + "HHHQ", 43, 8, 0, 0))

    def pack(typ, raw):
        # Re-encode each value in the output byte order.
        if typ in (1, 2, 6, 7):
            return raw
        size = TYPE_SIZES[typ]
        fmt = {2: "H", 4: "I", 8: "Q"}[size] if typ not in (5, 10, 11, 12) else None
        if typ in (5, 10):
            vals = struct.unpack(e + "I" * (len(raw) // 4), raw)
            return struct.pack(out_e + "I" * len(vals), *vals)
        if typ == 11:
            return struct.pack(out_e + "f" * (len(raw) // 4), *struct.unpack(e + "f" * (len(raw) // 4), raw))
        if typ == 12:
            return struct.pack(out_e + "d" * (len(raw) // 8), *struct.unpack(e + "d" * (len(raw) // 8), raw))
        vals = struct.unpack(e + fmt * (len(raw) // size), raw)
        return struct.pack(out_e + fmt * len(vals), *vals)

    def write_ifd(entries):
        """Writes the values, sub-IFDs and strips an IFD needs, then the IFD; returns its offset."""
        resolved = []
        by_tag = {entry[0]: entry for entry in entries}
        for tag, typ, n, raw in sorted(entries):
            if tag in POINTERS:
                (sub,) = values([tag, typ, n, raw])
                sub_entries, _ = ifd(sub)
                resolved.append((tag, 18, 1, struct.pack(out_e + "Q", write_ifd(sub_entries))))
            elif tag in OFFSETS:
                counts = values(by_tag[OFFSETS[tag]])
                moved = []
                for start, length in zip(values([tag, typ, n, raw]), counts):
                    moved.append(len(out))
                    out.extend(data[start:start + length])
                    if len(out) % 2:
                        out.append(0)
                resolved.append((tag, 16, n, struct.pack(out_e + "Q" * n, *moved)))
            else:
                resolved.append((tag, typ, n, pack(typ, raw)))
        far = {}
        for tag, typ, n, raw in resolved:
            if len(raw) > 8:
                far[tag] = len(out)
                out.extend(raw)
                if len(out) % 2:
                    out.append(0)
        if len(out) % 2:
            out.append(0)
        at = len(out)
        out.extend(struct.pack(out_e + "Q", len(resolved)))
        for tag, typ, n, raw in resolved:
            field = raw.ljust(8, b"\0") if len(raw) <= 8 else struct.pack(out_e + "Q", far[tag])
            out.extend(struct.pack(out_e + "HHQ", tag, typ, n) + field)
        out.extend(struct.pack(out_e + "Q", 0))
        return at

    previous = None
    for entries in chain:
        at = write_ifd(entries)
        if previous is None:
            out[8:16] = struct.pack(out_e + "Q", at)
        else:
            out[previous:previous + 8] = struct.pack(out_e + "Q", at)
        previous = len(out) - 8
    return bytes(out)


if __name__ == "__main__":
    source, target = sys.argv[1], sys.argv[2]
    with open(source, "rb") as fh:
        result = convert(fh.read(), "--big-endian" in sys.argv[3:])
    with open(target, "wb") as fh:
        fh.write(result)
