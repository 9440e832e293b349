#!/usr/bin/env bash
# power-test.sh [ITEMS] [CUTS] [SEED]
# The power-loss test at length, outside CI: an import of ITEMS items (default 200) with the power cut at CUTS
# random recorded points (default 300), each followed by a reopen, recovery and verify. See
# Tests/PhotoIntakeTests/Library/DurabilityTests.swift and Sources/PhotoIntake/Platform/PowerLossModel.swift.
set -euo pipefail
cd "$(dirname "$0")/.."
items=${1:-200}
cuts=${2:-300}
seed=${3:-$(date +%s)}
swift build --build-tests --traits TestHooks >/dev/null
echo "power-test: $items items, $cuts random cuts, seed $seed" >&2
PHOTOINTAKE_POWER_ITEMS=$items PHOTOINTAKE_POWER_RANDOM=$cuts PHOTOINTAKE_POWER_SEED=$seed \
  swift test --skip-build --traits TestHooks --filter 'DurabilityTests/powerCutAtEveryPoint'
