#!/usr/bin/env bash
# import-samples.sh [intake import options]
# Installs what is missing, builds intake, and imports the bundled sample photos into the default library
# ($XDG_DATA_HOME/photointake, else ~/.local/share/photointake), then lists it.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/install-deps.sh
INTAKE=$(Scripts/build-release.sh)
"$INTAKE" import Samples "$@"
"$INTAKE" list
