#!/usr/bin/env bash
# install-deps.sh [--test]
# Installs the Debian packages PhotoIntake needs on Linux, skipping those already installed.
#   build + run: libsqlite3-dev (manifest), libssl-dev (SHA-256), libvips-dev + libheif-dev (renditions)
#   --test adds the tools the test suite uses as oracles and harnesses:
#     libimage-exiftool-perl (metadata oracle), libvips-tools (pixel comparison), chromium (contact sheet),
#     python3-jsonschema (SARIF 2.1.0 schema validation)
set -euo pipefail
packages=(libsqlite3-dev libssl-dev libvips-dev libheif-dev pkg-config)
if [ "${1:-}" = "--test" ]; then
  packages+=(libimage-exiftool-perl libvips-tools chromium python3-jsonschema)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "install-deps: installing ${missing[*]}" >&2
if [ "$(id -u)" = 0 ]; then sudo=(); else sudo=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
