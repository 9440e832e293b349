#!/usr/bin/env bash
# check-docs-site.sh [OUT]
# Builds the DocC site (Scripts/docs.sh, into OUT, default .build/docs-site) and opens it in headless Chromium
# (Tests/IntakeCLITests/DocsSiteTests.swift, which runs only when PHOTOINTAKE_DOCS_SITE names a site). Needs the
# test build (`swift build --build-tests`) and chromium (Scripts/install-deps.sh --test).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:-.build/docs-site}
Scripts/docs.sh "$OUT"
PHOTOINTAKE_DOCS_SITE=$(cd "$OUT" && pwd) swift test --skip-build --filter DocsSiteTests
