#!/usr/bin/env bash
# open.sh [ROUNDS] [OLD_INTAKE]
# Opening a library costs the same at any size (issue 11): wall time of `intake list --limit 10` (open + one
# page) and `intake show ID` on libraries of 1,000, 10,000 and 100,000 assets, median of ROUNDS runs (default 9),
# with the ratio to the 1,000-asset library. With OLD_INTAKE (e.g. a release build of 0.1.0), the same commands
# of that binary are measured side by side on copies of the same libraries (0.1.0 reconciled every object on
# open).
#
# The libraries are made fast and honestly: one real import creates the manifest, then rows and object files
# (small, each named by its real SHA-256, so `intake verify` passes) are added directly.
set -euo pipefail
ROUNDS=${1:-9}
OLD=${2:-}
cd "$(dirname "$0")/.."
INTAKE=$(Scripts/build-release.sh 2>/dev/null)
WORK=$(mktemp -d "${TMPDIR:-/tmp}/intake-open.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

make_library() { # DIR COUNT INTAKE (the binary that creates the manifest, in its own schema)
  "$3" import --library "$1" --no-renditions Samples/IMG_0001.JPG >/dev/null
  python3 - "$1" "$2" <<'PY'
import hashlib, os, sqlite3, sys, time, uuid
root, count = sys.argv[1], int(sys.argv[2])
db = sqlite3.connect(os.path.join(root, "manifest.sqlite"))
seq = db.execute("SELECT seq FROM batches").fetchone()[0]
now = time.time()
rows, items = [], []
for n in range(1, count):
    data = b"\xff\xd8\xff\xe0" + n.to_bytes(8, "little") + b"\x00" * 52
    hex_ = hashlib.sha256(data).hexdigest()
    path = os.path.join(root, "objects", hex_[:2], hex_)
    with open(path, "wb") as f: f.write(data)
    os.chmod(path, 0o444)
    aid = str(uuid.uuid4())
    rows.append((aid, hex_, len(data), "jpeg", f"p{n}.jpg", now, now + n, seq, n))
    items.append((seq, n, aid))
db.executemany("INSERT INTO assets(id, sha256, size, type, name, imported_at, sort_date, batch_seq, position) "
               "VALUES (?,?,?,?,?,?,?,?,?)", rows)
db.executemany("INSERT INTO batch_items(batch_seq, position, asset_id) VALUES (?,?,?)", items)
db.commit(); db.execute("PRAGMA wal_checkpoint(TRUNCATE)"); db.close()
PY
}

time_of() { # COMMAND... -> median seconds
  for _ in $(seq "$ROUNDS"); do python3 Benchmarks/measure.py x -- "$@" | awk '{print $2}'; done | median
}

printf '%-8s %-10s %-22s %10s %8s\n' assets binary command seconds "vs 1k"
for count in 1000 10000 100000; do
  for bin in new ${OLD:+old}; do
    exe=$INTAKE; [ "$bin" = old ] && exe=$OLD
    lib="$WORK/$bin$count"
    make_library "$lib" "$count" "$exe"
    id=$("$exe" list --library "$lib" --limit 1 | awk '{print $1}')
    for cmd in list show; do
      if [ "$cmd" = list ]; then t=$(time_of "$exe" list --library "$lib" --limit 10)
      else t=$(time_of "$exe" show --library "$lib" "$id"); fi
      [ "$count" = 1000 ] && eval "base_${bin}_$cmd=$t"
      base=$(eval echo "\$base_${bin}_$cmd")
      printf '%-8s %-10s %-22s %10s %8s\n' "$count" "$bin" "$cmd" "$t" "$(python3 -c "print(f'{$t/$base:.2f}x')")"
    done
  done
done
"$INTAKE" verify --library "$WORK/new1000" >/dev/null && echo "verify on the 1,000-asset library: clean"
