#!/usr/bin/env bash
# storage-test.sh [INTAKE]
# Issue 24 item 4 by hand, on real storage: every command of INTAKE (default: the release build, built if needed)
# on a library of the Samples (1) in a folder whose files are not writable, run as user 65534 (setpriv); (2) on a
# read-only bind mount (EROFS); (3) on a 1 MB tmpfs filled to 16 KB free, then to 0. Needs root with
# CAP_SYS_ADMIN: the mounts are made in a private mount namespace (unshare -m) and vanish with it. Prints each
# command, the start of its output and its exit status. ReadOnlyStorageTests runs the same cases in the suite
# where the system allows it.
set -u
cd "$(dirname "$0")/.."
INTAKE=${1:-$(Scripts/build-release.sh)}
W=$(mktemp -d /tmp/ro-measure.XXXXXX)
chmod 755 "$W"
SAMPLES=$PWD/Samples
run() { echo "\$ $*"; "$@" >"$W/out" 2>"$W/err"; local rc=$?; head -c 400 "$W/out"; head -c 600 "$W/err"; echo "[exit $rc]"; }
"$INTAKE" import --library "$W/lib" "$SAMPLES/IMG_0001.JPG" "$SAMPLES/Screenshot 2024-01-05.png" "$SAMPLES/sticker.gif" >/dev/null 2>&1
ID=$("$INTAKE" list --library "$W/lib" --json | head -1 | sed 's/.*"id":"\([^"]*\)".*/\1/')
# A reader of the new build leaves an empty log and its index; a writer that closed leaves neither: measure that case.
[ ! -s "$W/lib/manifest.sqlite-wal" ] && rm -f "$W/lib/manifest.sqlite-wal" "$W/lib/manifest.sqlite-shm"
echo "library: $(ls "$W/lib" | tr '\n' ' ')  first id $ID"
cp -a "$W/lib" "$W/lib-full-src"
chmod -R a+rX "$W"
echo "=== 1. folder and files not writable (chmod -R a-w), run as nobody"
chmod -R a-w "$W/lib"
N="setpriv --reuid=65534 --regid=65534 --clear-groups"
mkdir -p "$W/out-nobody" && chown 65534 "$W/out-nobody"
for c in "list" "show $ID" "verify" "sheet --out $W/out-nobody/sheet" "export $ID $W/out-nobody/a.jpg" "import $SAMPLES/sticker.gif" "remove $ID" "repair"; do
  run $N "$INTAKE" $c --library "$W/lib"
done
chmod -R u+w "$W/lib"
echo "=== 2. read-only bind mount (EROFS)"
mkdir -p "$W/ro"
unshare -m bash -c "mount --bind '$W/lib' '$W/ro' && mount -o remount,bind,ro '$W/ro' && $(declare -f run); W='$W'; for c in 'list' 'show $ID' 'verify' 'sheet --out $W/sheet-ro' 'export $ID $W/a.jpg' 'import $SAMPLES/sticker.gif' 'remove $ID' 'repair'; do run '$INTAKE' \$c --library '$W/ro'; done"
echo "=== 3. full file system (1 MB tmpfs, filled to <= 16 KB free)"
mkdir -p "$W/full"
unshare -m bash -c "mount -t tmpfs -o size=1m tmpfs '$W/full' && cp -a '$W/lib-full-src' '$W/full/lib' && dd if=/dev/zero of='$W/full/filler' bs=4k 2>/dev/null; rm -f '$W/full/filler'; dd if=/dev/zero of='$W/full/filler' bs=1k count=\$(( \$(df -k --output=avail '$W/full' | tail -1) - 16 )) 2>/dev/null; df -k '$W/full' | tail -1; $(declare -f run); W='$W'; for c in 'list' 'show $ID' 'verify' 'export $ID $W/b.jpg' 'import $SAMPLES/PXL_20230918_201502.jpg' 'remove $ID' 'repair' 'list'; do run '$INTAKE' \$c --library '$W/full/lib'; done; dd if=/dev/zero of='$W/full/filler2' bs=1k 2>/dev/null; df -k '$W/full' | tail -1; for c in 'list' 'verify' 'import $SAMPLES/PXL_20230918_201502.jpg'; do run '$INTAKE' \$c --library '$W/full/lib'; done"
rm -rf "$W"
