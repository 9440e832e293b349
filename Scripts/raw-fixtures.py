#!/usr/bin/env python3
"""raw-fixtures.py OUTDIR

Makes small camera-raw fixtures with the layouts real cameras write (issue 26: a raw's rendition is its
embedded preview, never its sensor data). The pictures are JPEGs made by libvips (`vips copy`) from a drawn
image whose top-left quadrant is red and the rest white, so that a test can tell which way a rendition was
turned; the containers follow the formats' descriptions (TIFF 6.0, TIFF/EP, DNG 1.6, exiftool's NEF, ORF,
RW2 and RAF tables). The sensor data is a few zero bytes, or for the DNG a real lossless JPEG (SOF3, made by
FFmpeg's ljpeg encoder) as DNGs store it. Every file is checked with exiftool (its ImageSize) and with
vipsthumbnail, which renders a NEF's or DNG's first directory (the small RGB thumbnail).

  raw-nef.nef   big-endian NEF: IFD0 a 24x16 RGB thumbnail (NewSubfileType 1), orientation 6; SubIFD 1 a 192x128
                JPEG preview behind JPEGInterchangeFormat; SubIFD 2 the 198x132 sensor (colour filter array)
  raw-dng.dng   little-endian DNG: IFD0 a 48x32 RGB thumbnail, orientation 8; SubIFD 1 the 198x132 sensor as
                lossless JPEG (compression 7, SOF3); SubIFD 2 a 192x128 JPEG preview (compression 7, one strip)
  raw-rw2.rw2   Panasonic RW2 (magic 0x55): sensor 200x140, borders giving 192x128, JpgFromRaw (tag 0x2E) a
                192x128 JPEG, orientation 3
  raw-orf.orf   Olympus ORF (magic "IIRO"): IFD0 the 96x64 sensor, no preview at all
  raw-raf.raf   Fujifilm RAF: header, a 192x128 JPEG whose EXIF says FUJIFILM and orientation 6, the RAF
                directory (RawImageFullSize 200x136, RawImageCroppedSize 192x128), sensor bytes
  raw-crw.crw   Canon CRW (CIFF 1.0r4, little-endian): the root heap holds the sensor bytes, JpgFromRaw (0x2007, a
                192x128 JPEG) and ImageProps (0x300A), a heap with ImageInfo (0x1810: 192x128, rotation 270),
                TimeStamp (0x180E) and CameraObject (0x2807), a heap with the make and model (0x080A)
"""
import os
import struct
import subprocess
import sys
import tempfile

OUT = sys.argv[1]
TMP = tempfile.mkdtemp()


def run(*args):
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def picture_ppm(width, height):
    """P6: the top-left quadrant red, the rest white."""
    rows = bytearray()
    for y in range(height):
        for x in range(width):
            rows += b"\xff\x00\x00" if x < width // 2 and y < height // 2 else b"\xff\xff\xff"
    return b"P6 %d %d 255\n" % (width, height) + bytes(rows), bytes(rows)


def jpeg(width, height, name):
    ppm, _ = picture_ppm(width, height)
    src = os.path.join(TMP, name + ".ppm")
    out = os.path.join(TMP, name + ".jpg")
    open(src, "wb").write(ppm)
    run("vips", "copy", src, out + "[Q=90,strip]")
    return out


def lossless_jpeg(width, height):
    out = os.path.join(TMP, "sensor.ljpg")
    run("ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", f"color=c=gray:s={width}x{height}", "-frames:v", "1",
        "-c:v", "ljpeg", "-pix_fmt", "bgr24", "-f", "mjpeg", out)
    data = open(out, "rb").read()
    assert data[:2] == b"\xff\xd8" and b"\xff\xc3" in data, "ffmpeg made no SOF3 frame"
    return data


class TIFF:
    """A TIFF structure laid out as it is written: values, then each directory after what it points to."""

    TYPES = {"B": (1, 1), "A": (2, 1), "H": (3, 2), "I": (4, 4), "R": (5, 8), "U": (7, 1)}

    def __init__(self, e, magic=42, prefix=b""):
        self.e = e
        self.buf = bytearray(prefix + (b"II" if e == "<" else b"MM") + struct.pack(e + "HI", magic, 0))
        self.base = len(prefix)

    def blob(self, data):
        if len(self.buf) % 2:
            self.buf += b"\0"
        at = len(self.buf) - self.base
        self.buf += data
        return at

    def value(self, kind, values):
        e = self.e
        if kind == "A":
            return values.encode() + b"\0", len(values) + 1
        if kind == "U":
            return bytes(values), len(values)
        if kind == "R":
            return b"".join(struct.pack(e + "II", n, d) for n, d in values), len(values)
        fmt = {"B": "B", "H": "H", "I": "I"}[kind]
        return b"".join(struct.pack(e + fmt, v) for v in values), len(values)

    def ifd(self, entries):
        """entries: (tag, kind, values); returns the directory's offset."""
        e = self.e
        laid = []
        for tag, kind, values in sorted(entries):
            data, count = self.value(kind, values)
            if len(data) > 4:
                laid.append((tag, kind, count, struct.pack(e + "I", self.blob(data))))
            else:
                laid.append((tag, kind, count, data.ljust(4, b"\0")))
        if len(self.buf) % 2:
            self.buf += b"\0"
        at = len(self.buf) - self.base
        self.buf += struct.pack(e + "H", len(laid))
        for tag, kind, count, field in laid:
            self.buf += struct.pack(e + "HHI", tag, self.TYPES[kind][0], count) + field
        self.buf += struct.pack(e + "I", 0)
        return at

    def first(self, offset):
        struct.pack_into(self.e + "I", self.buf, self.base + 4, offset)


def exif_ifd(t, date):
    return t.ifd([(0x9003, "A", date)])


def write(name, data):
    path = os.path.join(OUT, name)
    open(path, "wb").write(data)
    return path


def nef():
    t = TIFF(">")
    preview = open(jpeg(192, 128, "nef-preview"), "rb").read()
    at = t.blob(preview)
    sub_preview = t.ifd([(0x00FE, "I", [1]), (0x0103, "H", [6]), (0x0201, "I", [at]), (0x0202, "I", [len(preview)]),
                         (0x0112, "H", [6])])
    sensor = t.blob(bytes(198 * 132 * 2))
    sub_raw = t.ifd([(0x00FE, "I", [0]), (0x0100, "I", [198]), (0x0101, "I", [132]), (0x0102, "H", [16]),
                     (0x0103, "H", [1]), (0x0106, "H", [32803]), (0x0111, "I", [sensor]), (0x0115, "H", [1]),
                     (0x0116, "I", [132]), (0x0117, "I", [198 * 132 * 2]), (0x828D, "H", [2, 2]),
                     (0x828E, "B", [0, 1, 1, 2])])
    _, rgb = picture_ppm(24, 16)
    strip = t.blob(rgb)
    exif = exif_ifd(t, "2024:05:06 07:08:09")
    ifd0 = t.ifd([(0x00FE, "I", [1]), (0x0100, "I", [24]), (0x0101, "I", [16]), (0x0102, "H", [8, 8, 8]),
                  (0x0103, "H", [1]), (0x0106, "H", [2]), (0x010F, "A", "NIKON CORPORATION"),
                  (0x0110, "A", "NIKON D70"), (0x0111, "I", [strip]), (0x0112, "H", [6]), (0x0115, "H", [3]),
                  (0x0116, "I", [16]), (0x0117, "I", [len(rgb)]), (0x014A, "I", [sub_preview, sub_raw]),
                  (0x8769, "I", [exif])])
    t.first(ifd0)
    return write("raw-nef.nef", t.buf)


def dng():
    t = TIFF("<")
    sensor = lossless_jpeg(198, 132)
    at = t.blob(sensor)
    sub_raw = t.ifd([(0x00FE, "I", [0]), (0x0100, "I", [198]), (0x0101, "I", [132]), (0x0102, "H", [16]),
                     (0x0103, "H", [7]), (0x0106, "H", [32803]), (0x0111, "I", [at]), (0x0115, "H", [1]),
                     (0x0116, "I", [132]), (0x0117, "I", [len(sensor)]), (0x828D, "H", [2, 2]),
                     (0x828E, "B", [0, 1, 1, 2])])
    preview = open(jpeg(192, 128, "dng-preview"), "rb").read()
    at = t.blob(preview)
    sub_preview = t.ifd([(0x00FE, "I", [1]), (0x0100, "I", [192]), (0x0101, "I", [128]), (0x0102, "H", [8, 8, 8]),
                         (0x0103, "H", [7]), (0x0106, "H", [6]), (0x0111, "I", [at]), (0x0115, "H", [3]),
                         (0x0116, "I", [128]), (0x0117, "I", [len(preview)])])
    _, rgb = picture_ppm(48, 32)
    # Two strips, one after the other, as DNG writers cut a thumbnail.
    half = len(rgb) // 2
    s1 = t.blob(rgb[:half])
    s2 = t.blob(rgb[half:])
    assert s2 == s1 + half
    ifd0 = t.ifd([(0x00FE, "I", [1]), (0x0100, "I", [48]), (0x0101, "I", [32]), (0x0102, "H", [8, 8, 8]),
                  (0x0103, "H", [1]), (0x0106, "H", [2]), (0x010F, "A", "Google"), (0x0110, "A", "Pixel 7"),
                  (0x0111, "I", [s1, s2]), (0x0112, "H", [8]), (0x0115, "H", [3]), (0x0116, "I", [16]),
                  (0x0117, "I", [half, half]), (0x014A, "I", [sub_raw, sub_preview]), (0xC612, "B", [1, 4, 0, 0]),
                  (0xC614, "A", "Google Pixel 7")])
    t.first(ifd0)
    return write("raw-dng.dng", t.buf)


def rw2():
    t = TIFF("<", magic=0x55)
    preview = open(jpeg(192, 128, "rw2-preview"), "rb").read()
    exif = exif_ifd(t, "2023:01:02 03:04:05")
    sensor = t.blob(bytes(64))
    ifd0 = t.ifd([(0x0001, "U", list(b"0310")), (0x0002, "H", [200]), (0x0003, "H", [140]), (0x0004, "H", [4]),
                  (0x0005, "H", [4]), (0x0006, "H", [132]), (0x0007, "H", [196]), (0x002E, "U", list(preview)),
                  (0x010F, "A", "Panasonic"), (0x0110, "A", "DMC-GX85"), (0x0111, "I", [sensor]),
                  (0x0112, "H", [3]), (0x0117, "I", [64]), (0x8769, "I", [exif])])
    t.first(ifd0)
    return write("raw-rw2.rw2", t.buf)


def orf():
    t = TIFF("<", magic=0x4F52)
    sensor = t.blob(bytes(96 * 64 * 2))
    ifd0 = t.ifd([(0x00FE, "I", [0]), (0x0100, "I", [96]), (0x0101, "I", [64]), (0x0102, "H", [16]),
                  (0x0103, "H", [1]), (0x0106, "H", [32803]), (0x010F, "A", "OLYMPUS IMAGING CORP."),
                  (0x0110, "A", "E-M10"), (0x0111, "I", [sensor]), (0x0112, "H", [1]), (0x0115, "H", [1]),
                  (0x0116, "I", [64]), (0x0117, "I", [96 * 64 * 2])])
    t.first(ifd0)
    return write("raw-orf.orf", t.buf)


def raf():
    path = jpeg(192, 128, "raf-preview")
    run("exiftool", "-q", "-overwrite_original", "-Make=FUJIFILM", "-Model=X-T30", "-Orientation#=6",
        "-DateTimeOriginal=2022:03:04 05:06:07", path)
    preview = open(path, "rb").read()
    header = bytearray(b"FUJIFILMCCD-RAW 0201FF383501".ljust(28, b"\0"))
    header += b"X-T30".ljust(32, b"\0") + b"0100" + bytes(20)
    assert len(header) == 84
    jpeg_at = 0x94
    directory = struct.pack(">I", 2) + struct.pack(">HHHH", 0x100, 4, 136, 200) + struct.pack(">HHHH", 0x111, 4, 128, 192)
    dir_at = jpeg_at + len(preview)
    sensor_at = dir_at + len(directory)
    header += struct.pack(">IIIIII", jpeg_at, len(preview), dir_at, len(directory), sensor_at, 64)
    header = header.ljust(jpeg_at, b"\0")
    return write("raw-raf.raf", bytes(header) + preview + directory + bytes(64))


def ciff_heap(records):
    """A CIFF heap: the values, then the table (a count, records of tag, size, offset), then the table's offset.
    A record whose value is bytes is stored in the heap; a heap is a list of records, laid out the same way."""
    body = bytearray()
    table = []
    for tag, value in records:
        data = ciff_heap(value) if isinstance(value, list) else value
        if len(body) % 2:
            body += b"\0"
        table.append(struct.pack("<HII", tag, len(data), len(body)))
        body += data
    at = len(body)
    return bytes(body) + struct.pack("<H", len(table)) + b"".join(table) + struct.pack("<I", at)


def crw():
    preview = open(jpeg(192, 128, "crw-preview"), "rb").read()
    info = struct.pack("<IIfiIII", 192, 128, 1.0, 270, 8, 24, 257)
    # 2021-02-03 04:05:06 on the camera's clock
    stamp = struct.pack("<IiI", 1612325106, 0, 0)
    props = [(0x1810, info), (0x180E, stamp), (0x2807, [(0x080A, b"Canon\0Canon EOS D30\0")])]
    heap = ciff_heap([(0x2005, bytes(64)), (0x2007, preview), (0x300A, props)])
    header = b"II" + struct.pack("<I", 26) + b"HEAPCCDR" + struct.pack("<I", 0x00010002) + bytes(8)
    return write("raw-crw.crw", header + heap)


def check(path, size, vips_renders):
    line = subprocess.run(["exiftool", "-q", "-q", "-m", "-s3", "-ImageSize", path], capture_output=True,
                          text=True).stdout.strip()
    if line not in (size, size.replace("x", " ")):
        sys.exit(f"raw-fixtures: exiftool reads {path} as {line!r}, not {size}")
    rendered = subprocess.run(["vipsthumbnail", path, "--size", "64", "-o", os.path.join(TMP, "v.jpg")],
                              capture_output=True).returncode == 0
    if rendered != vips_renders:
        sys.exit(f"raw-fixtures: vipsthumbnail {'renders' if rendered else 'does not render'} {path}")


os.makedirs(OUT, exist_ok=True)
check(nef(), "198x132", True)
check(dng(), "198x132", True)
check(rw2(), "192x128", False)
check(orf(), "96x64", False)
check(raf(), "192x128", False)
check(crw(), "192x128", False)
