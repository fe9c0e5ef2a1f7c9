#!/usr/bin/env bash
# README command 2 (and CI): install what is missing, build, run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
# MPI tests run as root in CI and oversubscribe its 2 cores.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# One test at a time: the CPU backend's OpenMP kernels use every core, and tests running side by side
# would oversubscribe them (spinning threads then slow each other down by orders of magnitude).
ctest --preset release "$@"
