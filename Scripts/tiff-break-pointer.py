#!/usr/bin/env python3
"""tiff-break-pointer.py IN.tif OUT.tif TAG

Copies a classic TIFF with IFD0's pointer entry TAG (0x8769 Exif, 0x8825 GPS) aimed past the end of the file,
as a damaged or cut-down file has it: a test fixture for "a damaged optional part costs only that part".
"""
import struct
import sys

data = bytearray(open(sys.argv[1], "rb").read())
tag = int(sys.argv[3], 0)
e = {b"II": "<", b"MM": ">"}[bytes(data[:2])]
(ifd0,) = struct.unpack(e + "I", data[4:8])
(count,) = struct.unpack(e + "H", data[ifd0:ifd0 + 2])
for i in range(count):
    at = ifd0 + 2 + 12 * i
    if struct.unpack(e + "H", data[at:at + 2])[0] == tag:
        data[at + 8:at + 12] = struct.pack(e + "I", len(data) + 4096)
        break
else:
    sys.exit(f"no tag {tag:#x} in IFD0")
open(sys.argv[2], "wb").write(data)
