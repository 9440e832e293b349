#!/usr/bin/env bash
# verify.sh CORPUS [ROUNDS]
# `intake verify` of a library holding the whole corpus (made by ../shared/bench/make-corpus.sh; imported once,
# without renditions) against `sha256sum` over the same object files, side by side in one run (median of ROUNDS
# rounds, default 5, alternating the tools; page cache warm for both). Both read every byte and hash it; verify
# also checks each object against its manifest row.
# Target (issue 23): intake verify >= 0.9x the speed of sha256sum, i.e. time ratio verify/sha256sum <= 1.11.
set -euo pipefail
export LC_ALL=C
CORPUS=$(cd "${1:?usage: verify.sh CORPUS [ROUNDS]}" && pwd)
ROUNDS=${2:-5}
cd "$(dirname "$0")/.."
INTAKE=${INTAKE:-$(Scripts/build-release.sh 2>/dev/null)}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/intake-verify.XXXXXX")
trap 'rm -rf "$WORK"' EXIT
measure() { python3 Benchmarks/measure.py "$@"; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }

mapfile -t files < <(find "$CORPUS" -maxdepth 1 -type f \( -name '*.jpg' -o -name '*.heic' -o -name '*.png' \) | sort)
"$INTAKE" import --library "$WORK/lib" --no-renditions "${files[@]}" >/dev/null
mapfile -t objects < <(find "$WORK/lib/objects" -type f | sort)
cat "${objects[@]}" >/dev/null
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); ${#objects[@]} objects, $(cat "${objects[@]}" | wc -c) bytes"
: >"$WORK/v.t"; : >"$WORK/s.t"; : >"$WORK/v.rss"
for _ in $(seq "$ROUNDS"); do
  measure verify -- "$INTAKE" verify --library "$WORK/lib" >"$WORK/m"
  read -r _ t rss <"$WORK/m"; echo "$t" >>"$WORK/v.t"; echo "$rss" >>"$WORK/v.rss"
  measure sha256sum -- sha256sum -- "${objects[@]}" >"$WORK/m"
  read -r _ t _ <"$WORK/m"; echo "$t" >>"$WORK/s.t"
done
tv=$(median <"$WORK/v.t"); ts=$(median <"$WORK/s.t")
printf '%-28s %10s %12s\n' tool seconds "peak RSS MB"
printf '%-28s %10.3f %12.1f\n' "intake verify" "$tv" "$(echo "$(sort -n "$WORK/v.rss" | tail -1)/1024" | bc -l)"
printf '%-28s %10.3f\n' "sha256sum (reference)" "$ts"
printf 'speed of verify vs sha256sum: %.2fx (target >= 0.90x)\n' "$(echo "$ts/$tv" | bc -l)"
