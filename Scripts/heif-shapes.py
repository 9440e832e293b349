#!/usr/bin/env python3
"""heif-shapes.py SHAPE IN OUT [ARG]: cut and patch the boxes of a HEIF file made by heif-enc (or an MP4
made by ffmpeg) into the shapes real cameras write, for the fixtures of issue 26
(Scripts/make-metadata-fixtures.sh calls it). Every edit keeps the file consistent: the sizes of the boxes
around an edit and the `iloc` offsets of the data after it are adjusted.

Shapes:
  exif-raw        the Exif item starts with the TIFF header, without the 4-byte offset (older writers)
  exif-empty      the Exif item has no bytes (an iPhone Live Photo still)
  aux-urn URN     the first auxiliary image's auxC type becomes URN (Apple gain map, depth)
  tmap            adds an ISO 21496-1 `tmap` item (derived from the primary image)
  stereo          adds a `grpl` box with a `ster` entity group of the primary image and its first aux image
  sequence        an ffmpeg MP4 with one HEVC track becomes a HEIF image sequence: brands msf1/hevc/iso8,
                  handler `pict`
"""
import struct
import sys

CONTAINERS = {b"meta": 4, b"iprp": 0, b"ipco": 0, b"iinf": 6, b"iref": 4, b"moov": 0, b"trak": 0, b"mdia": 0,
              b"grpl": 0}


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
        yield at, size, header, kind
        at += size


def find(data, path):
    """[(position, size, header)] of each box along `path` (e.g. [b"meta", b"iloc"])."""
    trail, start, end = [], 0, len(data)
    for name in path:
        for at, size, header, kind in boxes(data, start, end):
            if kind == name:
                trail.append((at, size, header))
                start, end = at + header + CONTAINERS.get(kind, 0), at + size
                break
        else:
            raise SystemExit(f"no box {name!r} in {path}")
    return trail


def parse_iloc(data):
    at, size, header = find(data, [b"meta", b"iloc"])[-1]
    p = at + header
    version = data[p]
    p += 4
    sizes, more = data[p], data[p + 1]
    p += 2
    off_size, len_size, base_size = sizes >> 4, sizes & 15, more >> 4
    idx_size = more & 15 if version >= 1 else 0
    count = struct.unpack(">H" if version < 2 else ">I", data[p:p + (2 if version < 2 else 4)])[0]
    p += 2 if version < 2 else 4
    items = []
    for _ in range(count):
        n = 2 if version < 2 else 4
        item = int.from_bytes(data[p:p + n], "big")
        p += n
        method = 0
        if version >= 1:
            method = int.from_bytes(data[p:p + 2], "big") & 15
            p += 2
        p += 2
        base = int.from_bytes(data[p:p + base_size], "big")
        p += base_size
        extents_count = int.from_bytes(data[p:p + 2], "big")
        p += 2
        extents = []
        for _ in range(extents_count):
            p += idx_size
            extents.append([int.from_bytes(data[p:p + off_size], "big"),
                            int.from_bytes(data[p + off_size:p + off_size + len_size], "big")])
            p += off_size + len_size
        items.append(dict(id=item, method=method, base=base, extents=extents))
    return dict(version=version, items=items)


def write_iloc(iloc):
    """Version 1 iloc, 4-byte offsets and lengths, no base offsets."""
    out = bytearray([1, 0, 0, 0, 0x44, 0x00]) + struct.pack(">H", len(iloc["items"]))
    for item in iloc["items"]:
        out += struct.pack(">HHHH", item["id"], item["method"], 0, len(item["extents"]))
        for offset, length in item["extents"]:
            out += struct.pack(">II", item["base"] + offset, length)
    return struct.pack(">I", 8 + len(out)) + b"iloc" + bytes(out)


def shift_after(iloc, position, delta):
    for item in iloc["items"]:
        if item["method"] == 0:
            for extent in item["extents"]:
                if item["base"] + extent[0] >= position:
                    extent[0] += delta


def set_iloc(data, iloc):
    """Writes `iloc` in place of the file's; when its size changes, the data after it moves and is followed."""
    trail = find(data, [b"meta", b"iloc"])
    at, old, _ = trail[-1]
    grow = len(write_iloc(iloc)) - old
    if grow:
        shift_after(iloc, at, grow)
    return replace(data, trail, write_iloc(iloc), shift=False)


def replace(data, trail, new, shift=True):
    """Replaces the last box of `trail` with `new`, grows the boxes around it, shifts later iloc offsets."""
    at, size, _ = trail[-1]
    delta = len(new) - size
    iloc = parse_iloc(data) if shift and delta else None
    out = bytearray(data[:at] + new + data[at + size:])
    for parent_at, parent_size, parent_header in trail[:-1]:
        if parent_header == 8:
            struct.pack_into(">I", out, parent_at, parent_size + delta)
        else:
            struct.pack_into(">Q", out, parent_at + 8, parent_size + delta)
    if iloc is not None:
        shift_after(iloc, at, delta)
        out = bytearray(set_iloc(bytes(out), iloc))
    return bytes(out)


def item_types(data):
    at, size, header = find(data, [b"meta", b"iinf"])[-1]
    version = data[at + header]
    start = at + header + 4 + (2 if version == 0 else 4)
    types = {}
    for e_at, e_size, e_header, kind in boxes(data, start, at + size):
        p = e_at + e_header
        v = data[p]
        if v >= 2:
            n = 2 if v == 2 else 4
            item = int.from_bytes(data[p + 4:p + 4 + n], "big")
            types[item] = data[p + 4 + n + 2:p + 4 + n + 6]
    return types


def primary(data):
    at, size, header = find(data, [b"meta", b"pitm"])[-1]
    return struct.unpack(">H", data[at + header + 4:at + header + 6])[0]


def full_box(kind, payload, version=0):
    return struct.pack(">I4sB3x", 12 + len(payload), kind, version) + payload


def exif_item(data):
    return next(i for i, t in item_types(data).items() if t == b"Exif")


def aux_items(data):
    at, size, header = find(data, [b"meta", b"iref"])[-1]
    p = at + header
    version = data[p]
    found = []
    for r_at, r_size, r_header, kind in boxes(data, p + 4, at + size):
        q = r_at + r_header
        n = 2 if version == 0 else 4
        if kind == b"auxl":
            found.append(int.from_bytes(data[q:q + n], "big"))
    return found


def main():
    shape, src, dst = sys.argv[1:4]
    data = open(src, "rb").read()
    if shape in ("exif-raw", "exif-empty"):
        iloc = parse_iloc(data)
        item = next(i for i in iloc["items"] if i["id"] == exif_item(data))
        offset, length = item["extents"][0]
        if shape == "exif-raw":
            prefix = 4 + struct.unpack(">I", data[item["base"] + offset:item["base"] + offset + 4])[0]
            item["extents"] = [[offset + prefix, length - prefix]]
        else:
            item["extents"] = []
        data = set_iloc(data, iloc)
    elif shape == "aux-urn":
        urn = sys.argv[4].encode() + b"\0"
        trail = find(data, [b"meta", b"iprp", b"ipco", b"auxC"])
        data = replace(data, trail, full_box(b"auxC", urn))
    elif shape == "tmap":
        types = item_types(data)
        new_id = max(types) + 1
        trail = find(data, [b"meta", b"iinf"])
        at, size, header = trail[-1]
        version = data[at + header]
        count_size = 2 if version == 0 else 4
        count = int.from_bytes(data[at + header + 4:at + header + 4 + count_size], "big")
        entries = data[at + header + 4 + count_size:at + size]
        infe = full_box(b"infe", struct.pack(">HH4s", new_id, 0, b"tmap") + b"\0", version=2)
        iinf = full_box(b"iinf", (count + 1).to_bytes(count_size, "big") + entries + infe, version=version)
        data = replace(data, trail, iinf)
        # The tmap item's payload (ISO 21496-1 §C.2: version, minimum version, …), cut to its first bytes:
        # readers that only note the gain map's presence never parse it. It goes in an mdat at the end.
        payload = bytes([0, 0, 0, 0, 0])
        iloc = parse_iloc(data)
        iloc["items"].append(dict(id=new_id, method=0, base=0, extents=[[0, len(payload)]]))
        data = set_iloc(data, iloc)
        iloc = parse_iloc(data)
        iloc["items"][-1]["extents"] = [[len(data) + 8, len(payload)]]
        data = set_iloc(data, iloc)
        data += struct.pack(">I4s", 8 + len(payload), b"mdat") + payload
    elif shape == "stereo":
        group = full_box(b"ster", struct.pack(">III", 1000, 2, primary(data)) + struct.pack(">I", aux_items(data)[0]))
        grpl = struct.pack(">I4s", 8 + len(group), b"grpl") + group
        trail = find(data, [b"meta", b"iprp"])
        at, size, _ = trail[-1]
        data = replace(data, trail, data[at:at + size] + grpl)
    elif shape == "sequence":
        at, size, header = find(data, [b"ftyp"])[-1]
        ftyp = b"msf1" + b"\0\0\0\0" + b"msf1hevciso8"
        out = bytearray(data[:at] + struct.pack(">I4s", 8 + len(ftyp), b"ftyp") + ftyp + data[at + size:])
        delta = (8 + len(ftyp)) - size
        assert delta <= 0, "the new ftyp must not be longer (chunk offsets would move)"
        if delta < 0:  # keep every offset: pad with a free box
            out[at + 8 + len(ftyp):at + 8 + len(ftyp)] = struct.pack(">I4s", -delta, b"free") + bytes(-delta - 8)
        hdlr_at, _, hdlr_header = find(bytes(out), [b"moov", b"trak", b"mdia", b"hdlr"])[-1]
        p = hdlr_at + hdlr_header + 8
        assert out[p:p + 4] == b"vide"
        out[p:p + 4] = b"pict"
        data = bytes(out)
    else:
        raise SystemExit(__doc__)
    open(dst, "wb").write(data)


if __name__ == "__main__":
    main()
