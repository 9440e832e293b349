#!/usr/bin/env bash
# symbol-graphs.sh OUT [MODULE...]
# Extracts the public symbol graphs of the portable library modules (default: PhotoMetadata PhotoIntake
# PhotoIntakeTesting PhotoIntakeAudit) from the debug build's modules with the toolchain's own
# swift-symbolgraph-extract, into OUT/MODULE/. Builds the libraries first (a no-op when they are built).
# PhotoIntakeUI is Apple-only: its graph needs the iOS SDK (../shared/tools/README.md).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:?usage: symbol-graphs.sh OUT [MODULE...]}
shift
modules=("$@")
[ ${#modules[@]} -gt 0 ] || modules=(PhotoMetadata PhotoIntake PhotoIntakeTesting PhotoIntakeAudit)
# With the TestHooks trait, as Scripts/test.sh builds: the same build is reused, and the DocC of
# PhotoIntakeTesting documents FaultInjection, which exists only with it.
for m in "${modules[@]}"; do swift build --traits TestHooks --target "$m" >/dev/null; done
BIN=$(swift build --traits TestHooks --show-bin-path)
TRIPLE=$(swiftc -print-target-info | sed -n 's/.*"triple": "\(.*\)".*/\1/p' | head -1)
# The C modules PhotoIntake imports (module maps under Sources/), and the GLib headers libvips's need.
cflags=()
for dir in Sources/CSQLite/include Sources/CCrypto/include Sources/CVips/include Sources/CVipsHeaders; do cflags+=(-I "$dir"); done
for inc in $(pkg-config --cflags-only-I glib-2.0 2>/dev/null); do cflags+=(-Xcc "$inc"); done
for m in "${modules[@]}"; do
  rm -rf "${OUT:?}/$m" && mkdir -p "$OUT/$m"
  # Protocol requirements' documentation is inherited (as DocC shows it) for implementations without their own.
  swift-symbolgraph-extract -module-name "$m" -target "$TRIPLE" -I "$BIN/Modules" "${cflags[@]}" \
    -minimum-access-level public -output-dir "$OUT/$m"
done
