#!/usr/bin/env bash
# stress-process-start.sh [runs [starts]]
# Runs ProcessStartStressTests `runs` times (default 5) through Foundation's Process (the crash the suite had:
# SIGSEGV in memmove inside Process.run() with over ~1,350 descriptors open), also with the glibc tunable
# Scripts/test.sh used to set, and through ChildProcess (the fix), and counts the runs that crashed. Each run starts 6 x `starts` (default 200) children.
# Needs a build with the tests: swift build --build-tests --traits TestHooks
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
export PHOTOINTAKE_STRESS_STARTS=${2:-200}
trial() {  # trial LABEL ENV...
  local label=$1 crashed=0 failed=0
  shift
  for _ in $(seq "$runs"); do
    output=$(env "$@" swift test --skip-build --traits TestHooks --filter ProcessStartStressTests 2>&1)
    if grep -q "Program crashed\|Segmentation fault\|signal code 11\|exited with unexpected signal" <<<"$output"; then
      crashed=$((crashed + 1))
    elif ! grep -q "Test run with .* passed" <<<"$output"; then
      failed=$((failed + 1))
    fi
  done
  echo "$label: $crashed of $runs runs crashed, $failed failed otherwise"
}
trial "Foundation Process" PHOTOINTAKE_STRESS_FOUNDATION_PROCESS=1
trial "Foundation Process, mmap_threshold=32768" PHOTOINTAKE_STRESS_FOUNDATION_PROCESS=1 \
  GLIBC_TUNABLES=glibc.malloc.mmap_threshold=32768
trial "ChildProcess" PHOTOINTAKE_STRESS_FOUNDATION_PROCESS=0
