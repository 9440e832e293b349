#!/usr/bin/env bash
# test.sh [swift test options]
# Installs what the tests need (Debian packages) and runs the whole test suite, with the TestHooks trait:
# the crash, power-cut and fault tests need the hooks it compiles in (Package.swift), which no other build has.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-deps.sh --test
swift build --build-tests --traits TestHooks
# Foundation's Process.run() on Linux copies all 256 bytes of each /proc/self/fd entry's d_name although glibc's
# entries are ~24 bytes (swift-corelibs-foundation PR #5472, not in Swift 6.3.1): when the last entry ends within
# 256 bytes of the end of a mapped region, the test run dies in memmove (seen about once in five whole runs).
# With every allocation of 32 KiB or more mapped on its own, glibc's directory buffer (32 KiB and a header)
# always has most of a page after it.
export GLIBC_TUNABLES="${GLIBC_TUNABLES:+$GLIBC_TUNABLES:}glibc.malloc.mmap_threshold=32768"
swift test --skip-build --traits TestHooks "$@"
