#!/usr/bin/env bash
# README command 1: install what is missing, build the miniapp binary (not the tests: scripts/test.sh
# builds those), run the default job.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh miniapp
build/release/miniapp/miniapp run "$@"
