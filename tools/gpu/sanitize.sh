#!/usr/bin/env bash
# scripts/sanitize.sh (the CPU test suite under ASan and UBSan) on a GPU machine's CPU cores: the
# packages of .debs/ (deps.sh), no VTK. Arguments go to scripts/sanitize.sh.
# Usage: tools/gpu/sanitize.sh [-j JOBS] [-t TARGET]... [-- CTEST_ARGS...]
set -euo pipefail
cd "$(dirname "$0")/../.."
source tools/gpu/deps.sh
export CMAKE_PREFIX_PATH="$deps/usr;$libdir/cmake" MINIAPP_VTK=OFF
exec scripts/sanitize.sh "$@"
