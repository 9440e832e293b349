#!/usr/bin/env bash
# ios-typecheck.sh [MODULE_OR_FOLDER...]
# Type-checks the Apple-platform code against every Apple SDK subset that ../shared/tools/README.md sets up, in one
# command, and prints one line per SDK × deployment target × mode with the errors and warnings in our code:
#
#   iOS 26.2 SDK: ios16.0 ios17.0 ios18.0 ios26.0     iOS 18.6 SDK: ios18.0     iOS 17.4 SDK: ios17.0
#   macOS 15.5 SDK: macos13.0 macos14.0 macos15.0
#   modes: typecheck (-typecheck) and sil (-emit-sil -wmo: Swift 6's region-based isolation errors are made only there)
#
# Modules (in dependency order): PhotoMetadata PhotoIntake PhotoIntakeTesting PhotoIntakeUI, then the demo app
# (Examples/PhotoIntakeDemo), which is iOS 17+ only: its cell says "skipped" on iOS 16 and macOS.
#
# A full run is 9 cells × 2 modes of 2–4 minutes each (JOBS=2 runs two cells at once). Choose a subset with:
#   CELLS="ios26.2/ios18.0 macos15.5/macos14.0"   SDK/deployment pairs (SDK names: ios26.2 ios18.6 ios17.4 macos15.5)
#   SDKS="ios26.2 macos15.5"                       every deployment target of these SDKs
#   MODES="sil"                                    typecheck, sil or both (default "typecheck sil")
#   TARGETS="PhotoMetadata PhotoIntake"             or name modules as arguments
# Each SDK × deployment target has its own module cache, $WORK_ROOT/<sdk>-<deployment> (default
# /tmp/tc-photointake-<sdk>-<deployment>, outside the repo); the modes of one cell reuse it one after the other,
# never at once. Full compiler output goes to $LOG_DIR/<sdk>-<deployment>-<mode>.log (default $WORK_ROOT/logs).
# The 17.4 SDK's standard library predates typed throws (`_willThrowTyped`, called by the 6.3 compiler on every
# typed `throw`); ios-sdk-setup patches it, and this script does too if an older subset lacks it.
# Exit status: 0 when every cell has no error and no warning in our code, 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."
TOOL=${IOS_TYPECHECK:-../shared/tools/ios-typecheck}
[ -x "$TOOL" ] || TOOL=/work/shared/tools/ios-typecheck
SDK_ROOT=${SDK_ROOT:-$HOME/.cache/photointake}
WORK_ROOT=${WORK_ROOT:-/tmp/tc-photointake}
LOG_DIR=${LOG_DIR:-$WORK_ROOT-logs}
MODES=${MODES:-typecheck sil}
mkdir -p "$LOG_DIR"

sdk_folder() {
  case $1 in
    ios26.2) echo iPhoneOS26.2.sdk ;; ios18.6) echo iPhoneOS18.6.sdk ;; ios17.4) echo iPhoneOS17.4.sdk ;;
    macos15.5) echo MacOSX15.5.sdk ;; *) echo "ios-typecheck.sh: unknown SDK $1" >&2; exit 2 ;;
  esac
}
deployments() {
  case $1 in
    ios26.2) echo ios16.0 ios17.0 ios18.0 ios26.0 ;; ios18.6) echo ios18.0 ;; ios17.4) echo ios17.0 ;;
    macos15.5) echo macos13.0 macos14.0 macos15.0 ;;
  esac
}

if [ -n "${CELLS:-}" ]; then
  read -r -a cells <<<"$CELLS"
else
  cells=()
  for sdk in ${SDKS:-ios26.2 ios18.6 ios17.4 macos15.5}; do
    for d in $(deployments "$sdk"); do cells+=("$sdk/$d"); done
  done
fi
if [ $# -gt 0 ]; then modules=("$@"); else read -r -a modules <<<"${TARGETS:-PhotoMetadata PhotoIntake PhotoIntakeTesting PhotoIntakeUI Examples/PhotoIntakeDemo}"; fi

# The 17.4 SDK's standard library lacks `_willThrowTyped`: copy its declaration from the toolchain's own interface.
patch_will_throw_typed() {
  local iface=$1/usr/lib/swift/Swift.swiftmodule/arm64-apple-ios.swiftinterface
  [ -f "$iface" ] && ! grep -q "swift_willThrowTyped" "$iface" || return 0
  local swift_root host
  swift_root=$(dirname "$(dirname "$(readlink -f "$(command -v swiftc)")")")
  host=$(find "$swift_root/lib/swift/linux/Swift.swiftmodule" -name '*.swiftinterface' ! -name '*private*' | head -1)
  awk '/@_silgen_name\("swift_willThrowTypedImpl"\)/{p=1; print prev} /@_silgen_name\("swift_unexpectedError"\)/{p=0} p{print} {prev=$0}' \
    "$host" >"$1/willThrowTyped.swift.part"
  grep -q "func _willThrowTyped" "$1/willThrowTyped.swift.part" || {
    echo "ios-typecheck.sh: could not find _willThrowTyped in $host" >&2; exit 3; }
  cat "$1/willThrowTyped.swift.part" >>"$iface" && rm -f "$1/willThrowTyped.swift.part"
}

# Counts diagnostics per module in a log: our code is every path under Sources/ or Examples/.
summarize() {
  awk -v mods="$2" '
    BEGIN { n = split(mods, m, " ") }
    /^== [^ ]+ \(/ { cur = $2; next }
    # The type-check and the module emission print the same diagnostic twice: count each once.
    /^(Sources|Examples)\/[^:]+:[0-9]+:[0-9]+: (error|warning):/ {
      if (seen[cur, $0]++) next
      if ($0 ~ /: error:/) e[cur]++; else w[cur]++
      next
    }
    /^error:|: error:/ { if (!seen[cur, $0]++) other[cur]++ }
    END {
      line = ""
      for (i = 1; i <= n; i++) {
        name = m[i]; sub(/.*\//, "", name)
        s = sprintf("%s %de/%dw", name, e[name] + 0, w[name] + 0)
        if (other[name] > 0) s = s sprintf("(+%d SDK/tool errors)", other[name])
        line = line (line == "" ? "" : "  ") s
        te += e[name]; tw += w[name]; to += other[name]
      }
      printf "%s\t%d\t%d\t%d\n", line, te, tw, to
    }' "$1"
}

# One cell: both modes, one after the other (they share the cell's module cache). Prints the cell's lines.
run_cell() {
  local cell=$1 sdk deploy sdk_path triple mod mode log start rc line te tw to verdict skipped cell_status=0
  local -a cell_modules=()
  sdk=${cell%%/*}; deploy=${cell#*/}
  sdk_path=$SDK_ROOT/$(sdk_folder "$sdk")
  if [ ! -d "$sdk_path/usr/lib/swift" ]; then
    printf '%-16s %-10s %-9s %s\n' "$sdk" "$deploy" - "MISSING SDK at $sdk_path (see ../shared/tools/README.md)"
    return 1
  fi
  patch_will_throw_typed "$sdk_path"
  triple=arm64-apple-$deploy
  skipped=""
  for mod in "${modules[@]}"; do
    # The demo app is iOS 17+ (SwiftUI's @Observable models, inline pickers); it is not a macOS app.
    if [[ $mod == Examples/PhotoIntakeDemo ]] && { [[ $deploy == macos* ]] || [[ $deploy == ios16.0 ]]; }; then
      skipped="  PhotoIntakeDemo skipped (iOS 17+ only)"; continue
    fi
    cell_modules+=("$mod")
  done
  for mode in $MODES; do
    log=$LOG_DIR/$sdk-$deploy-$mode.log
    start=$(date +%s)
    rc=0
    WORK=$WORK_ROOT-$sdk-$deploy IOS_SDK=$sdk_path IOS_TARGET=$triple MODE=$mode EMIT_ON_ERROR=1 \
      EXTRA_FLAGS="-D IOS_TYPECHECK ${EXTRA_FLAGS:-}" "$TOOL" "${cell_modules[@]}" >"$log" 2>&1 || rc=$?
    IFS=$'\t' read -r line te tw to < <(summarize "$log" "${cell_modules[*]}")
    verdict=clean
    if [ "$te" -gt 0 ] || [ "$tw" -gt 0 ] || [ "$to" -gt 0 ]; then verdict="NOT CLEAN"; cell_status=1
    elif [ "$rc" -ne 0 ]; then verdict="FAILED (exit $rc, see $log)"; cell_status=1; fi
    printf '%-16s %-10s %-9s %s: %s%s  [%ss]\n' "$sdk" "$deploy" "$mode" "$verdict" "$line" "$skipped" \
      "$(($(date +%s) - start))"
  done
  return $cell_status
}

# JOBS cells at once (default 1; each cell is one compiler process at a time, so JOBS=2 suits 2 idle cores).
# Lines are printed in the matrix's order whatever order the cells finish in.
JOBS=${JOBS:-1}
status=0
printf '%-16s %-10s %-9s %s\n' SDK deployment mode "result (errors/warnings in our code, per module)"
out_dir=$(mktemp -d)
trap 'rm -rf "$out_dir"' EXIT
for i in "${!cells[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do wait -n || true; done
  ( cell_rc=0; run_cell "${cells[$i]}" >"$out_dir/$i.out" || cell_rc=$?; echo "$cell_rc" >"$out_dir/$i.rc" ) &
done
wait
for i in "${!cells[@]}"; do
  cat "$out_dir/$i.out"
  [ "$(cat "$out_dir/$i.rc")" = 0 ] || status=1
done
echo "logs: $LOG_DIR"
exit $status
