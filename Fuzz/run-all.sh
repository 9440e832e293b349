#!/usr/bin/env bash
# run-all.sh SECONDS [TARGET...]
# Builds each PhotoMetadata libFuzzer target (release, fuzzer + address sanitizers) and runs it for SECONDS,
# one at a time (JOBS=2 runs two at once). Corpora live in Fuzz/corpus/<target> (seeded from the test
# fixtures; not in git), crashes in Fuzz/artifacts/<target>. Prints executions and crashes per target and
# exits 1 if any target crashed. Every crash must become a regression case in MalformedTests.
set -euo pipefail
cd "$(dirname "$0")"
SECONDS_PER_TARGET=${1:?usage: run-all.sh SECONDS [TARGET...]}
shift
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(JPEG PNG GIF WebP TIFF ISOBMFF)
JOBS=${JOBS:-1}
FIXTURES=../Tests/PhotoMetadataTests/Fixtures

seeds() {  # target -> fixture glob
  case $1 in
    JPEG) echo "$FIXTURES/*.jpg" ;; PNG) echo "$FIXTURES/*.png" ;; GIF) echo "$FIXTURES/*.gif" ;;
    WebP) echo "$FIXTURES/*.webp" ;; TIFF) echo "$FIXTURES/*.tif $FIXTURES/*.dng" ;;
    ISOBMFF) echo "$FIXTURES/*.heic $FIXTURES/*.avif $FIXTURES/*.mov $FIXTURES/*.mp4" ;;
  esac
}

for t in "${TARGETS[@]}"; do
  swift build -c release --product "Fuzz$t" --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address \
    --disable-dead-strip 2>&1 | grep -E "error:|complete" | tail -3 || true
done
BIN=$(swift build -c release --show-bin-path --sanitize fuzzer -Xswiftc -sanitize=fuzzer,address)

run() {
  local t=$1 log
  mkdir -p "corpus/$t" "artifacts/$t"
  # shellcheck disable=SC2046
  cp -n $(seeds "$t") "corpus/$t/" 2>/dev/null || true
  log="artifacts/$t/run.log"
  SWIFT_BACKTRACE=enable=no "$BIN/Fuzz$t" "corpus/$t" -max_total_time="$SECONDS_PER_TARGET" -timeout=2 \
    -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 -artifact_prefix="artifacts/$t/" >"$log" 2>&1 || true
  local execs crashes
  execs=$(grep -E "stat::number_of_executed_units" "$log" | awk '{print $2}')
  crashes=$(find "artifacts/$t" -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' -o -name 'leak-*' | wc -l)
  printf '%-8s executions=%-10s crashes=%s corpus=%s\n' "$t" "${execs:-?}" "$crashes" "$(ls "corpus/$t" | wc -l)"
}

export -f run seeds
export BIN SECONDS_PER_TARGET FIXTURES
printf '%s\n' "${TARGETS[@]}" | xargs -P "$JOBS" -I{} bash -c 'run {}' | tee summary.txt
! grep -qE "crashes=[1-9]" summary.txt
