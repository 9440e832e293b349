#!/usr/bin/env bash
# ios-typecheck.sh [TARGET_OR_FOLDER...]
# Type-checks the Apple-platform code against the iOS 17.4 SDK with ../shared/tools/ios-typecheck, after two
# preparations that tool does not make:
#  1. `-package-name PhotoIntake`, which SwiftPM passes and our `package` declarations need.
#  2. The 17.4 SDK's standard library predates Swift 6's typed throws: it lacks `_willThrowTyped`, which the
#     6.3 compiler calls on every typed `throw`, so SIL generation crashes (signal 11) when the tool emits a
#     module for the next target. Xcode 16's SDKs declare it as an always-emit-into-client function that does
#     nothing before iOS 18. This script copies that declaration from the installed toolchain's own standard
#     library interface into the local SDK copy (once; outside the repo), which is what a newer SDK contains.
# Default targets: PhotoMetadata PhotoIntake PhotoIntakeTesting PhotoIntakeUI, then the demo app if present.
# IOS_TARGET=arm64-apple-ios16.0 checks against the package's oldest deployment target (the demo app needs 17).
set -euo pipefail
cd "$(dirname "$0")/.."
TOOL=${IOS_TYPECHECK:-../shared/tools/ios-typecheck}
[ -x "$TOOL" ] || TOOL=/work/shared/tools/ios-typecheck
SDK=${IOS_SDK:-$HOME/.cache/photointake/iPhoneOS17.4.sdk}
IFACE="$SDK/usr/lib/swift/Swift.swiftmodule/arm64-apple-ios.swiftinterface"
[ -f "$IFACE" ] || { echo "ios-typecheck.sh: no SDK at $SDK; see ../shared/tools/README.md" >&2; exit 3; }
if ! grep -q "swift_willThrowTyped" "$IFACE"; then
  SWIFT_ROOT=$(dirname "$(dirname "$(readlink -f "$(command -v swiftc)")")")
  HOST=$(find "$SWIFT_ROOT/lib/swift/linux/Swift.swiftmodule" -name '*.swiftinterface' ! -name '*private*' | head -1)
  # The declarations between `public protocol Error` and `swift_unexpectedError`.
  awk '/@_silgen_name\("swift_willThrowTypedImpl"\)/{p=1; print prev} /@_silgen_name\("swift_unexpectedError"\)/{p=0} p{print} {prev=$0}' \
    "$HOST" >"$SDK/willThrowTyped.swift.part"
  grep -q "func _willThrowTyped" "$SDK/willThrowTyped.swift.part" || {
    echo "ios-typecheck.sh: could not find _willThrowTyped in $HOST" >&2; exit 3; }
  cat "$SDK/willThrowTyped.swift.part" >>"$IFACE"
  rm -f "$SDK/willThrowTyped.swift.part"
  rm -rf "${TMPDIR:-/tmp}/photointake-ios-typecheck/cache"   # rebuild the SDK module cache
fi
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(PhotoMetadata PhotoIntake PhotoIntakeTesting PhotoIntakeUI)
  [ -d Examples/PhotoIntakeDemo ] && targets+=(Examples/PhotoIntakeDemo)
fi
EXTRA_FLAGS="-package-name PhotoIntake ${EXTRA_FLAGS:-}" exec "$TOOL" "${targets[@]}"
