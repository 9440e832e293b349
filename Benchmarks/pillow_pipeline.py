#!/usr/bin/env python3
"""pillow_pipeline.py DEST FILE...   the reference for issue 12: what a careful Python prototype of PhotoIntake's
import does, per photo, in 2 worker processes:

  copy into DEST/objects (with fsync, then rename), SHA-256 while copying, read EXIF (piexif), and write an
  upright 320 px JPEG thumbnail (Pillow's draft() = libjpeg DCT scaling, then thumbnail(), exif_transpose).

It is the figure `Benchmarks/import.sh` compares `intake import` against; it keeps no manifest, so it is an
optimistic bound for a prototype. HEIC is opened through pillow-heif.
"""
import hashlib, os, sys
from multiprocessing import Pool

from PIL import Image, ImageOps
import piexif
import pillow_heif

pillow_heif.register_heif_opener()
DEST = sys.argv[1]


def one(path):
    digest = hashlib.sha256()
    temporary = os.path.join(DEST, "staging", os.path.basename(path) + ".part")
    with open(path, "rb") as source, open(temporary, "wb") as out:
        while True:
            chunk = source.read(1 << 20)
            if not chunk:
                break
            digest.update(chunk)
            out.write(chunk)
        out.flush()
        os.fsync(out.fileno())
    name = digest.hexdigest()
    final = os.path.join(DEST, "objects", name)
    os.rename(temporary, final)
    try:
        piexif.load(final)
    except Exception:
        pass
    with Image.open(final) as image:
        image.draft("RGB", (320, 320))
        image = ImageOps.exif_transpose(image)
        image.thumbnail((320, 320))
        image.convert("RGB").save(os.path.join(DEST, "thumbs", name + ".jpg"), quality=82)
    return name


if __name__ == "__main__":
    for folder in ("staging", "objects", "thumbs"):
        os.makedirs(os.path.join(DEST, folder), exist_ok=True)
    with Pool(2) as pool:
        names = pool.map(one, sys.argv[2:], chunksize=1)
    directory = os.open(os.path.join(DEST, "objects"), os.O_RDONLY)
    os.fsync(directory)
    os.close(directory)
    print(len(names))
