#!/usr/bin/env bash
# Installs missing packages, then configures the release preset and builds TARGETs (default: all).
# Usage: scripts/build.sh [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
cmake --preset release >/dev/null
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build --preset release -j "$(nproc)" "${targets[@]}"
