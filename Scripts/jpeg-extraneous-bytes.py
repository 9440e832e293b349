#!/usr/bin/env python3
"""jpeg-extraneous-bytes.py IN.jpg OUT.jpg

Puts extraneous bytes between the marker segments of a baseline JPEG, as some writers do (padding, a
miscounted length): a run of text after APP1 and, before the frame header, zeros then two fill bytes (0xFF,
ITU T.81 §B.1.1.2). libjpeg skips both with "Corrupt JPEG data: N extraneous bytes before marker" and decodes
the image; exiftool reads the size. No byte of the runs is 0xFF followed by a marker code, so every decoder
resynchronises on the real markers.
"""
import sys

data = open(sys.argv[1], "rb").read()
assert data[:2] == b"\xff\xd8"
out, at = bytearray(data[:2]), 2
while True:
    marker, length = data[at + 1], int.from_bytes(data[at + 2:at + 4], "big")
    if marker == 0xC0:
        out += b"\0\0\0\0\xff\xff"
    out += data[at:at + 2 + length]
    at += 2 + length
    if marker == 0xE1:
        out += b"PADDING: extraneous bytes by a writer"
    if marker == 0xDA:
        break
out += data[at:]
open(sys.argv[2], "wb").write(out)
