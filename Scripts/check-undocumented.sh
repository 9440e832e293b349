#!/usr/bin/env bash
# check-undocumented.sh
# Fails (exit 1) when a public symbol of PhotoMetadata, PhotoIntake, PhotoIntakeTesting or PhotoIntakeAudit has
# no doc comment, listing each as file:line. The symbols come from the symbol graphs (Scripts/symbol-graphs.sh);
# what is counted and what is not is said in Scripts/undocumented.py.
set -euo pipefail
cd "$(dirname "$0")/.."
Scripts/symbol-graphs.sh .build/symbol-graphs
python3 Scripts/undocumented.py .build/symbol-graphs
