#!/usr/bin/env bash
# test.sh [swift test options]
# Installs what the tests need (Debian packages) and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-deps.sh --test
swift build --build-tests
swift test --skip-build "$@"
