#!/usr/bin/env bash
# README command 1: install what is missing, build, run the default job.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
build/release/miniapp/miniapp run "$@"
