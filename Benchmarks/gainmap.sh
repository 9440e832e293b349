#!/usr/bin/env bash
# gainmap.sh FOLDER
# HDR gain-map kind of real JPEGs (issue 27): for every .jpg/.jpeg of FOLDER (not recursive), `intake metadata`'s
# hdrGainMap against exiftool's reading, by the rule GainMapJPEGTests states: a gain map is an MPF image (Doc2 …
# under `exiftool -ee`) whose own metadata says so — ISO 21496-1 APP2 or `hdrgm:` XMP for iso, Apple's
# HDRGainMap XMP or auxiliary type for apple, iso winning; the primary's own claims count for nothing.
#
# EXIFTOOL=path to an exiftool that reads the ISO 21496-1 APP2 (12.7x or later; Debian 12's 12.57 does not): a
# checkout of ExifTool's repository runs as it is. INTAKE=path/to/intake (default: .build/debug/intake).
# Files are split by the first hex digit of the MD5 of their name (0-7 tuning, 8-f held-out), as realfiles.sh
# does. Prints one line per file (half, exiftool's kind, ours, agreement) and the agreement per half.
set -uo pipefail
FOLDER=${1:?usage: gainmap.sh FOLDER}
cd "$(dirname "$0")/.."
INTAKE=${INTAKE:-$PWD/.build/debug/intake}
EXIFTOOL=${EXIFTOOL:-exiftool}
WORK=$(mktemp -d /tmp/gainmap.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

mapfile -t FILES < <(find "$FOLDER" -maxdepth 1 -type f \( -iname '*.jpg' -o -iname '*.jpeg' \) | sort)
[ ${#FILES[@]} -gt 0 ] || { echo "no JPEG files in $FOLDER" >&2; exit 1; }
"$EXIFTOOL" -q -q -m -ee -a -G3:1 -json -XMP-hdrgm:Version -XMP-HDRGainMap:HDRGainMapVersion \
  -XMP-apdi:AuxiliaryImageType -APP2:UniformResourceName "${FILES[@]}" >"$WORK/exiftool.json" 2>/dev/null
"$INTAKE" metadata --json "${FILES[@]}" >"$WORK/metadata.jsonl" 2>/dev/null
echo "exiftool $("$EXIFTOOL" -ver)"

python3 - "$WORK/exiftool.json" "$WORK/metadata.jsonl" <<'EOF'
import hashlib, json, os, sys
oracle = {os.path.abspath(r["SourceFile"]): r for r in json.load(open(sys.argv[1]))}
ours = {}
for line in open(sys.argv[2]):
    line = line.strip()
    if line:
        r = json.loads(line)
        ours[os.path.abspath(r.get("path", ""))] = r.get("hdrGainMap", "error")

def kind(tags):
    images = [(k.split(":", 1)[1], str(v)) for k, v in tags.items()
              if k.startswith("Doc") and not k.startswith("Doc1:")]
    if any(t == "XMP-hdrgm:Version" or (t == "APP2:UniformResourceName" and v.startswith("urn:iso:std:iso:ts:21496:-1"))
           for t, v in images):
        return "iso"
    if any(t == "XMP-HDRGainMap:HDRGainMapVersion" or (t == "XMP-apdi:AuxiliaryImageType" and "hdrgainmap" in v)
           for t, v in images):
        return "apple"
    return "none"

counts = {}
for path in sorted(oracle):
    name = os.path.basename(path)
    half = "tuning" if hashlib.md5(name.encode()).hexdigest()[0] in "01234567" else "held-out"
    expected, got = kind(oracle[path]), ours.get(path, "error")
    ok = expected == got
    agree, total = counts.get(half, (0, 0))
    counts[half] = (agree + ok, total + 1)
    print(f"{half:8}  exiftool {expected:5}  intake {got:5}  {'agree' if ok else 'DIFFER'}  {name}")
for half in ("tuning", "held-out"):
    agree, total = counts.get(half, (0, 0))
    print(f"{half}: {agree}/{total} agree")
agree = sum(a for a, _ in counts.values()); total = sum(t for _, t in counts.values())
print(f"all: {agree}/{total} agree")
EOF
