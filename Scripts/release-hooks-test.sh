#!/usr/bin/env bash
# release-hooks-test.sh
# Proves that a release `intake` (Scripts/build-release.sh: no TestHooks trait, as an app or a user builds it)
# contains no test hooks: PHOTOINTAKE_CRASH_AT set to every crash point kills nothing (each import exits 0
# and stores its photo), and the binary does not even contain the variable's name. The debug build with the
# trait (Scripts/test.sh) is the one whose CrashTests are killed at those points. The PHOTOINTAKE_LIB…
# variables that name another libvips, libheif or FFmpeg file are ignored as well.
set -euo pipefail
cd "$(dirname "$0")/.."
intake=$(Scripts/build-release.sh)
work=$(mktemp -d "${TMPDIR:-/tmp}/release-hooks.XXXXXX")
trap 'rm -rf "$work"' EXIT
failed=0
if grep -q PHOTOINTAKE_CRASH_AT "$intake"; then
  echo "release-hooks-test: $intake contains PHOTOINTAKE_CRASH_AT" >&2
  failed=1
fi
for point in after-staging-write after-staging-fsync after-rename after-commit; do
  mkdir -p "$work/$point"
  # A photo of its own per point (distinct bytes), so that each import has something to commit.
  cp Tests/PhotoIntakeTests/Fixtures/Imaging/exif-thumbnail.jpg "$work/$point/photo.jpg"
  printf '%s' "$point" >>"$work/$point/photo.jpg"
  status=0
  PHOTOINTAKE_CRASH_AT="$point:1" "$intake" import --library "$work/library" --no-renditions --json \
    "$work/$point/photo.jpg" >"$work/$point.out" 2>&1 || status=$?
  if [ $status != 0 ]; then
    echo "release-hooks-test: import with PHOTOINTAKE_CRASH_AT=$point:1 ended with status $status" >&2
    cat "$work/$point.out" >&2
    failed=1
  fi
done
# The library overrides are test hooks too: a release build loads the system's libvips and FFmpeg whatever
# PHOTOINTAKE_LIBVIPS / _LIBAVFORMAT name (a test build would fail to load the missing file named here).
for variable in PHOTOINTAKE_LIBVIPS PHOTOINTAKE_LIBHEIF PHOTOINTAKE_LIBAVFORMAT; do
  if ! env "$variable=$work/missing.so" "$intake" thumbnail Tests/PhotoIntakeTests/Fixtures/Imaging/exif-thumbnail.jpg \
    --size 32 --no-preview --out "$work/$variable.jpg" >"$work/$variable.out" 2>&1; then
    echo "release-hooks-test: $variable=$work/missing.so changed what the release build loads" >&2
    cat "$work/$variable.out" >&2
    failed=1
  fi
done
# Likewise PHOTOINTAKE_LIBSQLITE3 and PHOTOINTAKE_LIBCRYPTO: a release build opens the system's SQLite and libcrypto.
for variable in PHOTOINTAKE_LIBSQLITE3 PHOTOINTAKE_LIBCRYPTO; do
  cp Tests/PhotoIntakeTests/Fixtures/Imaging/exif-thumbnail.jpg "$work/$variable.jpg"
  printf '%s' "$variable" >>"$work/$variable.jpg"
  if ! env "$variable=$work/missing.so" "$intake" import --library "$work/$variable-library" --no-renditions \
    "$work/$variable.jpg" >"$work/$variable.out" 2>&1; then
    echo "release-hooks-test: $variable=$work/missing.so changed what the release build loads" >&2
    cat "$work/$variable.out" >&2
    failed=1
  fi
done
# SQLite and libcrypto are opened at the first connection or hash (CSQLite, CCrypto), not linked: a process that
# needs neither, such as `intake audit`, does not load them. The imports above used both.
needed=$(readelf -d "$intake" | grep NEEDED || true)
if grep -qE 'libsqlite3|libcrypto' <<<"$needed"; then
  echo "release-hooks-test: $intake links SQLite or libcrypto:" >&2
  echo "$needed" >&2
  failed=1
fi
loaded=$(LD_DEBUG=files "$intake" audit "$work" 2>&1 >/dev/null | grep -E 'file=lib(sqlite3|crypto)' || true)
if [ -n "$loaded" ]; then
  echo "release-hooks-test: intake audit loaded SQLite or libcrypto:" >&2
  echo "$loaded" >&2
  failed=1
fi
count=$("$intake" list --library "$work/library" --json | grep -c '"sha256"' || true)
if [ "$count" != 4 ]; then
  echo "release-hooks-test: the library holds $count photos, not 4" >&2
  failed=1
fi
[ $failed = 0 ] && echo "release-hooks-test: no test hooks in $intake (4 imports under PHOTOINTAKE_CRASH_AT, 4 stored;" \
  "SQLite and libcrypto not linked, not loaded by intake audit)"
exit $failed
