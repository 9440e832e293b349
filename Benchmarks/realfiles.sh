#!/usr/bin/env bash
# realfiles.sh FOLDER [OUT.tsv]
# Robustness on real files no one here made (issue 26): for every file of FOLDER (not recursive), whether
#   exiftool reads its image size         (exiftool -ImageSize, one batch process)
#   `intake metadata` reads it            (exit status per file, from the --json lines)
#   vipsthumbnail renders it              (vipsthumbnail --size 320, one process per file, 120 s cap)
#   `intake thumbnail` renders it         (--size 320, one batch process)
# and which files are HEIF image sequences (ftyp brand msf1/heis/hevs/avis, no top-level 'meta').
#
# Files are split by a hash of their name (first hex digit of the MD5 of the basename: 0-7 tuning, 8-f
# held-out), so that the held-out half can be judged before and after a change that was tuned on the other.
# Prints the counts per half and overall, and the files behind every failure that counts against us:
#   metadata failures where exiftool reads the size, and files vipsthumbnail renders but intake does not.
# Also whether `intake metadata`'s size agrees with exiftool's ImageSize (either way round), and which files are raws.
# INTAKE=path/to/intake overrides the binary (default: the debug build, .build/debug/intake).
# VIPS_FROM=earlier.tsv reuses the vipsthumbnail column of an earlier run on the same folder (it is the slow part).
# SHOW=tuning lists the failures of the tuning half only, so that a held-out half can be measured blind (its
# counts are printed, not its files). KEEP=folder keeps the tools' raw outputs there.
set -uo pipefail
FOLDER=${1:?usage: realfiles.sh FOLDER [OUT.tsv]}
cd "$(dirname "$0")/.."
INTAKE=${INTAKE:-$PWD/.build/debug/intake}
WORK=$(mktemp -d /tmp/realfiles.XXXXXX)
OUT=${2:-$WORK/results.tsv}
trap 'rm -rf "$WORK/vips" "$WORK/intake"; [ -n "${KEEP:-}" ] && mkdir -p "$KEEP" && cp "$WORK"/*.json* "$WORK"/vips.txt "$KEEP"/' EXIT
mkdir -p "$WORK/vips" "$WORK/intake"

mapfile -t FILES < <(find "$FOLDER" -maxdepth 1 -type f | sort)
[ ${#FILES[@]} -gt 0 ] || { echo "no files in $FOLDER" >&2; exit 1; }

exiftool -q -q -m -json -ImageSize "${FILES[@]}" > "$WORK/exiftool.json" 2>/dev/null
"$INTAKE" metadata --json "${FILES[@]}" > "$WORK/metadata.jsonl" 2>/dev/null
"$INTAKE" thumbnail --json --size 320 --jobs 2 --out "$WORK/intake" "${FILES[@]}" \
  > "$WORK/thumbnail.jsonl" 2>/dev/null
: > "$WORK/vips.txt"
if [ -n "${VIPS_FROM:-}" ]; then
  # vipsthumbnail's column of an earlier run's table (same folder): it does not change between our builds.
  awk -F'\t' -v dir="$FOLDER" 'NR > 1 && $5 == 1 { print dir "/" $1 }' "$VIPS_FROM" | sed 's#//*#/#g' \
    > "$WORK/vips.txt"
fi
for f in "${FILES[@]}"; do
  [ -n "${VIPS_FROM:-}" ] && break
  if timeout 120 vipsthumbnail "$f" --size 320 -o "$WORK/vips/x.jpg" >/dev/null 2>&1; then
    echo "$f" >> "$WORK/vips.txt"
  fi
done

SHOW=${SHOW:-all} python3 - "$WORK" "$OUT" "${FILES[@]}" <<'PY'
import hashlib, json, os, re, sys
work, out, files = sys.argv[1], sys.argv[2], sys.argv[3:]
show = os.environ.get("SHOW", "all")
exif_size = {}
for e in json.load(open(f"{work}/exiftool.json")):
    m = re.match(r"^(\d+)[x ](\d+)$", str(e.get("ImageSize", "")))
    if e.get("ImageSize"):
        exif_size[e["SourceFile"]] = (int(m.group(1)), int(m.group(2))) if m else None
sized = set(exif_size)
def lines(name):
    return [json.loads(l) for l in open(f"{work}/{name}") if l.strip().startswith("{")]
meta_ok = {e["path"] for e in lines("metadata.jsonl") if "error" not in e}
meta_size = {e["path"]: (e.get("width"), e.get("height")) for e in lines("metadata.jsonl") if "error" not in e}
RAW = re.compile(r"\.(dng|nef|nrw|cr2|cr3|crw|arw|srf|sr2|orf|rw2|rwl|pef|raf|srw|3fr|erf|kdc|dcr|mef|mos|iiq|x3f|mrw)$",
                 re.I)
def agrees(f):
    want, got = exif_size.get(f), meta_size.get(f)
    return want is not None and got is not None and (got == want or got == want[::-1])
meta_err = {e["path"]: e["error"] for e in lines("metadata.jsonl") if "error" in e}
thumb_ok = {e["path"] for e in lines("thumbnail.jsonl") if "error" not in e}
thumb_err = {e["path"]: e["error"] for e in lines("thumbnail.jsonl") if "error" in e}
vips_ok = set(open(f"{work}/vips.txt").read().splitlines())

def is_sequence(path):
    with open(path, "rb") as fh:
        head = fh.read(4096)
    if len(head) < 16 or head[4:8] != b"ftyp":
        return False
    size = int.from_bytes(head[:4], "big")
    brands = {head[8:12]} | {head[i:i + 4] for i in range(16, min(size, len(head)) - 3, 4)}
    if not brands & {b"msf1", b"heis", b"hevs", b"avis"}:
        return False
    at, top = 0, set()
    length = os.path.getsize(path)
    with open(path, "rb") as fh:
        while at + 8 <= length:
            fh.seek(at)
            h = fh.read(16)
            n = int.from_bytes(h[:4], "big")
            if n == 1:
                n = int.from_bytes(h[8:16], "big")
            top.add(h[4:8])
            if n < 8:
                break
            at += n
    return b"meta" not in top

rows = []
for f in files:
    name = os.path.basename(f)
    half = "tuning" if hashlib.md5(name.encode()).hexdigest()[0] in "01234567" else "held-out"
    rows.append(dict(file=f, name=name, half=half, exif=f in sized, meta=f in meta_ok, vips=f in vips_ok,
                     thumb=f in thumb_ok, seq=is_sequence(f), size=agrees(f), raw=bool(RAW.search(name))))
with open(out, "w") as fh:
    fh.write("name\thalf\texiftool_size\tintake_metadata\tvipsthumbnail\tintake_thumbnail\tsequence"
             "\tsize_agrees\traw\n")
    for r in rows:
        fh.write("\t".join([r["name"], r["half"]] + [str(int(r[k])) for k in
                           ("exif", "meta", "vips", "thumb", "seq", "size", "raw")]) + "\n")

print(f"{'':10} {'files':>6} {'exif size':>9} {'meta ok':>8} {'meta FAIL':>9} {'vips':>6} {'intake':>7}"
      f" {'vips-only':>9} {'sequences':>9} {'seq rendered':>12} {'size agrees':>11} {'raws':>5}"
      f" {'raw thumbs':>10}")
for label, pick in (("held-out", "held-out"), ("tuning", "tuning"), ("all", None)):
    rs = [r for r in rows if pick is None or r["half"] == pick]
    fail = [r for r in rs if r["exif"] and not r["meta"]]
    vips_only = [r for r in rs if r["vips"] and not r["thumb"]]
    seqs = [r for r in rs if r["seq"]]
    print(f"{label:10} {len(rs):6} {sum(r['exif'] for r in rs):9} {sum(r['meta'] for r in rs):8}"
          f" {len(fail):9} {sum(r['vips'] for r in rs):6} {sum(r['thumb'] for r in rs):7} {len(vips_only):9}"
          f" {len(seqs):9} {sum(r['thumb'] for r in seqs):12}"
          f" {sum(r['size'] for r in rs if r['exif'] and r['meta']):5}/{sum(r['exif'] and r['meta'] for r in rs):<5}"
          f" {sum(r['raw'] for r in rs):5} {sum(r['thumb'] for r in rs if r['raw']):10}")
shown = [r for r in rows if show == "all" or r["half"] == show]
for r in shown:
    if r["exif"] and not r["meta"]:
        print(f"metadata FAIL  [{r['half']}] {r['name']}: {meta_err.get(r['file'], '?')}")
for r in shown:
    if r["vips"] and not r["thumb"]:
        print(f"thumbnail FAIL [{r['half']}] {r['name']}: {thumb_err.get(r['file'], '?')}")
for r in shown:
    if r["seq"] and not r["thumb"]:
        print(f"sequence FAIL  [{r['half']}] {r['name']}: {thumb_err.get(r['file'], '?')}")
for r in shown:
    if r["exif"] and r["meta"] and not r["size"]:
        print(f"size differs   [{r['half']}] {r['name']}: exiftool {exif_size.get(r['file'])},"
              f" intake {meta_size.get(r['file'])}")
if show != "all":
    print(f"(failures of the {show} half only; SHOW=all lists every half)")
print(f"per-file table: {out}")
PY
