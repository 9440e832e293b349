#!/usr/bin/env bash
# run.sh [MUTANTS_PER_FIXTURE]
# Builds the movie-poster C code (Sources/CVips/movie_poster.c) with AddressSanitizer, UndefinedBehaviorSanitizer
# and leak detection, and runs it over the movie fixtures and over cut and bit-flipped copies of them (default 100
# per fixture, seeded, so a run is repeatable). Exits 1 on any sanitizer report. Needs clang and the FFmpeg -dev
# packages (Scripts/install-deps.sh). Every finding must become a fixture and a MoviePosterTests case.
set -euo pipefail
cd "$(dirname "$0")"
N=${1:-100}
ROOT=$(cd ../.. && pwd)
CVIPS=$ROOT/Sources/CVips
FIXTURES=$ROOT/Tests/PhotoIntakeTests/Fixtures/Movies
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
clang -g -O1 -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer \
  $(pkg-config --cflags vips glib-2.0) -I"$CVIPS/include" -I"$CVIPS" -fuse-ld=lld -o "$TMP/harness" harness.c \
  "$CVIPS/movie_poster.c" "$CVIPS/imaging_loader.c" -ldl -lpthread -lm
mkdir -p "$TMP/mutants"
python3 - "$TMP/mutants" "$N" "$FIXTURES"/* <<'PY'
import os, random, sys
out, n, files = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
rng = random.Random(20261201)
for path in files:
    data = open(path, "rb").read()
    base = os.path.basename(path)
    for k in range(n):
        mutant = bytearray(data)
        if k % 3 == 0:
            mutant = mutant[: rng.randrange(1, len(mutant))]
        else:
            for _ in range(rng.randint(1, 8)):
                mutant[rng.randrange(len(mutant))] = rng.randrange(256)
        open(os.path.join(out, f"{base}.{k}"), "wb").write(mutant)
PY
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
count=$(find "$FIXTURES" "$TMP/mutants" -type f | wc -l)
if find "$FIXTURES" "$TMP/mutants" -type f -print0 | xargs -0 -n 200 "$TMP/harness" > "$TMP/out" 2> "$TMP/err"; then
  echo "run.sh: $count movies, $(grep -c "status 0 " "$TMP/out") posters made, no sanitizer report"
else
  grep -m 20 -E "ERROR|runtime error|SUMMARY" "$TMP/err" || tail -20 "$TMP/err"
  echo "run.sh: a sanitizer report (above) over $count movies" >&2
  exit 1
fi
