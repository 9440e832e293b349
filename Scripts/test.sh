#!/usr/bin/env bash
# test.sh [swift test options]
# Installs what the tests need (Debian packages) and runs the whole test suite, with the TestHooks trait:
# the crash, power-cut and fault tests need the hooks it compiles in (Package.swift), which no other build has.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-deps.sh --test
swift build --build-tests --traits TestHooks
swift test --skip-build --traits TestHooks "$@"
