#!/usr/bin/env bash
# kill-test.sh [ROUNDS] [SEED]
# The kill -9 test at length, outside CI: ROUNDS (default 1000) child `intake import`s killed at seeded random
# moments, each followed by the invariant checks of Tests/IntakeCLITests/CrashTests.swift (verify passes, every
# acknowledged item is present, the next writer leaves staging empty and objects equal to rows).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-1000}
seed=${2:-$(date +%s)}
swift build --build-tests --traits TestHooks >/dev/null
echo "kill-test: $rounds rounds, seed $seed" >&2
PHOTOINTAKE_CRASH_RUNS=$rounds PHOTOINTAKE_CRASH_SEED=$seed \
  swift test --skip-build --traits TestHooks --filter 'CrashTests/randomKillsNeverLoseAcknowledgedImports'
