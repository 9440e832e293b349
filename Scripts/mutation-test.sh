#!/usr/bin/env bash
# mutation-test.sh [NAME...]
# Applies each listed mutation (a small, realistic break of the production code, found by pattern so that it
# survives refactoring) one at a time, runs the tests that should notice, and prints killed/survived.
# The working tree is restored after each mutation (git checkout of the mutated file). Run on a clean tree.
set -uo pipefail
cd "$(dirname "$0")/.."
if [ -n "$(git status --porcelain Sources)" ]; then echo "mutation-test: Sources/ has uncommitted changes" >&2; exit 2; fi

# name | file | perl substitution (applied to the first match) | swift test filter
mutations=(
  "no-file-fsync|Sources/PhotoIntake/Import/StagingSink.swift|s/try file\.seal\(readOnly: true\)/file.file.makeReadOnly()/|DurabilityTests/powerCut"
  "no-dir-fsync-after-link|Sources/PhotoIntake/ObjectStore/ObjectStore.swift|s/^(\s*)try folder\.sync\(\)/\1_ = 0/m|DurabilityTests/powerCut"
  "synchronous-normal|Sources/PhotoIntake/Database/Database.swift|s/\"PRAGMA synchronous=FULL\"/\"PRAGMA synchronous=NORMAL\"/|DurabilityTests/theManifestIsOpenedForDurableCommits"
  "intent-after-link|Sources/PhotoIntake/Library/GroupCommit.swift|s/(    let recorded = await manifest\.recordPlacements.*?\n    \}\n)(    let linking = )placing\.filter \{ intents\[.0\] != nil \}(\n    if !linking\.isEmpty \{\n.*?\n    \}\n)/\$2placing\$3\$1/s|DurabilityTests/powerCut"
  "row-before-link|Sources/PhotoIntake/Library/GroupCommit.swift|s/(    let linking = placing\.filter.*?\n    if !linking\.isEmpty \{\n.*?\n    \}\n)(    let going = .*?    let outcomes = [^\n]*\n)/\$2\$1/s|DurabilityTests/powerCut"
  "no-link-row-only|Sources/PhotoIntake/ObjectStore/ObjectStore.swift|s/^(\s*)try place\(file, in: folder\)/\1_ = 0/m|DurabilityTests|LibraryTests"
  "imported-before-commit|Sources/PhotoIntake/Manifest/Manifest+Rows.swift|s/^(\s*)try insertRow\(asset, batch: row\.batch\)/\1_ = 0/m|DurabilityTests|LibraryTests"
  "gps-bytes-left|Sources/PhotoMetadata/Stripping/ExifGPSEraser.swift|s/for entry in gps\.entries where !entry\.isInline \{/for entry in gps.entries where !entry.isInline \&\& entry.tag != 4 {/|StrippedBytesTests"
  "objects-writable|Sources/PhotoIntake/Import/StagingSink.swift|s/file\.seal\(readOnly: true\)/file.seal(readOnly: false)/|DurabilityTests/storedObjectsAreReadOnly"
  "recovery-ignores-inode|Sources/PhotoIntake/ObjectStore/ObjectStore.swift|s/UInt64\(info\.st_ino\) == inode/true/|IntentRecoveryTests|DurabilityTests|LibraryTests"
  "undo-ignores-rows|Sources/PhotoIntake/Manifest/Manifest+Intents.swift|s/if try database\.assetID\(withSHA256: intent\.digest\) == nil \{/if true {/|IntentRecoveryTests|DurabilityTests"
)

printf '%-26s %s\n' mutation result
for row in "${mutations[@]}"; do
  IFS='|' read -r name file substitution filter <<<"$row"
  if [ $# -gt 0 ] && [[ " $* " != *" $name "* ]]; then continue; fi
  if [ ! -f "$file" ]; then printf '%-26s %s\n' "$name" "SKIPPED (no $file)"; continue; fi
  perl -0pi -e "$substitution" "$file"
  if git diff --quiet -- "$file"; then printf '%-26s %s\n' "$name" "NOT APPLIED (pattern not found)"; continue; fi
  if ! swift build --build-tests --traits TestHooks >/tmp/mutation-build.log 2>&1; then
    result="killed (does not compile)"
  elif PHOTOINTAKE_POWER_STRIDE=5 swift test --skip-build --traits TestHooks --filter "$filter" >/tmp/mutation-$name.log 2>&1; then
    result="SURVIVED"
  else
    result="killed"
  fi
  git checkout -q -- "$file"
  printf '%-26s %s\n' "$name" "$result"
done
swift build --build-tests --traits TestHooks >/dev/null 2>&1
