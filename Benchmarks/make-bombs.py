#!/usr/bin/env python3
"""make-bombs.py OUTDIR   makes the decode-budget inputs of issue 24 (small files that cost a lot to decode).

Needs ffmpeg (libx265, libwebp, png) and vips. Every file is made from scratch each run; none is committed.
  grid.heic         a HEIF whose 27x27 grid (13824x13824, 191 MP, under the 200 MP pixel limit) references
                    one 512x512 HEVC tile 729 times (ISO/IEC 23008-12 6.6.2.3 ImageGrid, iref 'dimg')
  progressive.jpg   a progressive JPEG (SOF2) declaring 14000x14000, 3 components 1x1 (4:4:4), ~30 KB
  screen.gif        35 bytes: a 14000x14000 logical screen (GIF89a 18) with one 1x1 frame
  frames.webp       an animated WebP: a 1024x1024 canvas and 100,000 1x1 lossless frames (~5 MB)
  large.png         14000x14000 (196 MP) grey PNG, for export --as jpeg at full size
  truncated.png     74 bytes: a 64x64 PNG cut inside its IDAT
  claimed.mov       a playable 64x64 H.264 movie whose tkhd and stsd claim 65535x65535
"""
import os, struct, subprocess, sys, tempfile, zlib

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
tmp = tempfile.mkdtemp()


def run(*args):
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def box(kind, payload):
    return struct.pack(">I", 8 + len(payload)) + kind + payload


def full(kind, version, flags, payload):
    return box(kind, bytes([version]) + flags.to_bytes(3, "big") + payload)


def children(data, start=0, end=None):
    """(type, payload start, payload end) of the boxes in data[start:end]."""
    end = len(data) if end is None else end
    at = start
    while at + 8 <= end:
        size, kind = struct.unpack(">I4s", data[at:at + 8])
        yield kind, at + 8, at + size
        at += size


def find(data, path, start=0, end=None, skip=None):
    """The payload range of the first box along path (container payload offsets given in skip)."""
    skip = skip or {}
    for kind, s, e in children(data, start, end):
        if kind == path[0]:
            s += skip.get(kind, 0)
            return (s, e) if len(path) == 1 else find(data, path[1:], s, e, skip)
    raise SystemExit(f"make-bombs: no {path} box")


# --- grid.heic: the tile's hvcC and one coded sample, taken from an MP4 that ffmpeg writes.
run("ffmpeg", "-y", "-f", "lavfi", "-i", "testsrc2=size=512x512:rate=1:duration=1", "-frames:v", "1",
    "-c:v", "libx265", "-x265-params", "log-level=none:keyint=1", "-pix_fmt", "yuv420p", "-tag:v", "hvc1",
    f"{tmp}/tile.mp4")
mp4 = open(f"{tmp}/tile.mp4", "rb").read()
stsd = find(mp4, [b"moov", b"trak", b"mdia", b"minf", b"stbl", b"stsd"])
# stsd: full box header (4) + entry count (4); hvc1 sample entry: 8 box header + 78 bytes, then its boxes.
entry = stsd[0] + 8
hvcc = find(mp4, [b"hvcC"], entry + 8 + 78, stsd[1])
hvcc_box = box(b"hvcC", mp4[hvcc[0]:hvcc[1]])
mdat = find(mp4, [b"mdat"])
stsz = find(mp4, [b"moov", b"trak", b"mdia", b"minf", b"stbl", b"stsz"])
# stsz: version and flags (4), a size for every sample or 0 (4), count (4), then each sample's size.
sample_size = struct.unpack(">I", mp4[stsz[0] + 4:stsz[0] + 8])[0] or struct.unpack(
    ">I", mp4[stsz[0] + 12:stsz[0] + 16])[0]
stco = find(mp4, [b"moov", b"trak", b"mdia", b"minf", b"stbl", b"stco"])
offset = struct.unpack(">I", mp4[stco[0] + 8:stco[0] + 12])[0]
tile = mp4[offset:offset + sample_size]

rows = columns = 27
side = 512 * columns
hdlr = full(b"hdlr", 0, 0, b"\0" * 4 + b"pict" + b"\0" * 12 + b"\0")
pitm = full(b"pitm", 0, 0, struct.pack(">H", 2))
infe1 = full(b"infe", 2, 1, struct.pack(">HH", 1, 0) + b"hvc1" + b"\0")  # flags 1: hidden
infe2 = full(b"infe", 2, 0, struct.pack(">HH", 2, 0) + b"grid" + b"\0")
iinf = full(b"iinf", 0, 0, struct.pack(">H", 2) + infe1 + infe2)
dimg = box(b"dimg", struct.pack(">HH", 2, rows * columns) + struct.pack(">H", 1) * (rows * columns))
iref = full(b"iref", 0, 0, dimg)
ispe_tile = full(b"ispe", 0, 0, struct.pack(">II", 512, 512))
ispe_grid = full(b"ispe", 0, 0, struct.pack(">II", side, side))
ipco = box(b"ipco", hvcc_box + ispe_tile + ispe_grid)
ipma = full(b"ipma", 0, 0, struct.pack(">I", 2) + struct.pack(">HB", 1, 2) + bytes([0x81, 0x02])
            + struct.pack(">HB", 2, 1) + bytes([0x03]))
iprp = box(b"iprp", ipco + ipma)
grid = bytes([0, 0, rows - 1, columns - 1]) + struct.pack(">HH", side, side)
ftyp = box(b"ftyp", b"heic" + b"\0\0\0\0" + b"mif1heic")


def meta_with(tile_at, grid_at):
    # iloc version 0: offset_size 4, length_size 4, base_offset_size 0; one extent per item.
    iloc = full(b"iloc", 0, 0, bytes([0x44, 0x00]) + struct.pack(">H", 2)
                + struct.pack(">HHHII", 1, 0, 1, tile_at, len(tile))
                + struct.pack(">HHHII", 2, 0, 1, grid_at, len(grid)))
    return full(b"meta", 0, 0, hdlr + pitm + iloc + iinf + iref + iprp)


head = len(ftyp) + len(meta_with(0, 0)) + 8
heic = ftyp + meta_with(head, head + len(tile)) + box(b"mdat", tile + grid)
open(f"{out}/grid.heic", "wb").write(heic)

# --- progressive.jpg: a real progressive 4:4:4 JPEG of 160x160 noise, its SOF2 then made to declare 14000².
run("vips", "gaussnoise", f"{tmp}/noise.v", "160", "160")
run("vips", "bandjoin", f"{tmp}/noise.v {tmp}/noise.v {tmp}/noise.v", f"{tmp}/noise3.v")
run("vips", "cast", f"{tmp}/noise3.v", f"{tmp}/noise8.v", "uchar")
run("vips", "jpegsave", f"{tmp}/noise8.v", f"{tmp}/small.jpg", "--interlace", "--subsample-mode", "off",
    "--Q", "95", "--strip")
jpeg = bytearray(open(f"{tmp}/small.jpg", "rb").read())
sof = jpeg.find(b"\xff\xc2")
assert sof > 0, "vips wrote no progressive frame header"
jpeg[sof + 5:sof + 9] = struct.pack(">HH", 14000, 14000)
open(f"{out}/progressive.jpg", "wb").write(jpeg)

# --- screen.gif: header, 14000x14000 screen without colour table, one 1x1 frame, trailer (35 bytes).
gif = b"GIF89a" + struct.pack("<HH", 14000, 14000) + bytes([0, 0, 0])
gif += b"\x2c" + struct.pack("<HHHH", 0, 0, 1, 1) + b"\0" + bytes([2, 2, 0x44, 0x01, 0]) + b"\x3b"
open(f"{out}/screen.gif", "wb").write(gif)

# --- frames.webp: a 1x1 lossless bitstream from vips, repeated in 100,000 ANMF frames.
run("vips", "black", f"{tmp}/pixel.v", "1", "1", "--bands", "3")
run("vips", "webpsave", f"{tmp}/pixel.v", f"{tmp}/pixel.webp", "--lossless", "--strip")
pixel = open(f"{tmp}/pixel.webp", "rb").read()
at = 12
while pixel[at:at + 4] != b"VP8L":  # RIFF chunks: fourCC, little-endian size, payload padded to even
    at += 8 + ((struct.unpack("<I", pixel[at + 4:at + 8])[0] + 1) & ~1)
vp8l = pixel[at:at + 8 + ((struct.unpack("<I", pixel[at + 4:at + 8])[0] + 1) & ~1)]


def chunk(kind, payload):
    return kind + struct.pack("<I", len(payload)) + payload + (b"\0" if len(payload) % 2 else b"")


def u24(value):
    return struct.pack("<I", value)[:3]


frame = chunk(b"ANMF", u24(0) + u24(0) + u24(0) + u24(0) + u24(0) + b"\x00" + vp8l)
body = b"WEBP" + chunk(b"VP8X", b"\x02\0\0\0" + u24(1023) + u24(1023)) + chunk(b"ANIM", b"\0" * 6)
body += frame * 100_000
open(f"{out}/frames.webp", "wb").write(b"RIFF" + struct.pack("<I", len(body)) + body)

# --- large.png: 196 MP of one grey (compresses to a few hundred KB).
run("vips", "black", f"{tmp}/black.v", "14000", "14000", "--bands", "3")
run("vips", "linear", f"{tmp}/black.v", f"{tmp}/grey.v", "1", "128", "--uchar")
run("vips", "pngsave", f"{tmp}/grey.v", f"{out}/large.png", "--compression", "1", "--strip")

# --- truncated.png: a 64x64 RGB PNG cut to 74 bytes (signature, IHDR, 33 bytes of IDAT).
raw = b"".join(b"\0" + b"".join(bytes([x * 4, y * 4, 128]) for x in range(64)) for y in range(64))


def png_chunk(kind, payload):
    return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))


png = b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", 64, 64, 8, 2, 0, 0, 0))
png += png_chunk(b"IDAT", zlib.compress(raw, 9)) + png_chunk(b"IEND", b"")
open(f"{out}/truncated.png", "wb").write(png[:74])

# --- claimed.mov: a playable H.264 movie; tkhd (16.16) and the avc1 sample entry then claim 65535².
run("ffmpeg", "-y", "-f", "lavfi", "-i", "testsrc2=size=64x64:rate=10:duration=1", "-c:v", "libx264",
    "-pix_fmt", "yuv420p", f"{tmp}/small.mov")
mov = bytearray(open(f"{tmp}/small.mov", "rb").read())
tkhd = find(mov, [b"moov", b"trak", b"tkhd"])
mov[tkhd[1] - 8:tkhd[1]] = struct.pack(">II", 65535 << 16, 65535 << 16)
stsd = find(mov, [b"moov", b"trak", b"mdia", b"minf", b"stbl", b"stsd"])
# Visual sample entry: box header 8, reserved 6, index 2, 16 bytes pre-defined/reserved, then width, height.
mov[stsd[0] + 8 + 32:stsd[0] + 8 + 36] = struct.pack(">HH", 65535, 65535)
open(f"{out}/claimed.mov", "wb").write(mov)

for name in sorted(os.listdir(out)):
    print(f"{name} {os.path.getsize(os.path.join(out, name))}")
