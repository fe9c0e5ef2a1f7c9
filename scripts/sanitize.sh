#!/usr/bin/env bash
# The CPU test suite under AddressSanitizer and UBSan (docs/reliability.md): builds it with the
# sanitize preset (CPU only, -fsanitize=address,undefined, assertions on, and -O1, which ASan's
# documentation advises for speed: the whole-program MPI tests keep their time limits) and runs it,
# MPI tests included, as many at a time as JOBS (each with one OpenMP thread). Any ASan or UBSan
# report, or a leak outside MPI's and OpenMP's run-time state (scripts/sanitizers/lsan.supp), fails
# the test that shows it; the options are in scripts/sanitizers/.
# Usage: scripts/sanitize.sh [-j JOBS] [-t TARGET]... [-- CTEST_ARGS...]
#   -j JOBS    compile jobs, and tests at a time (default: the cores)
#   -t TARGET  build only these targets (repeatable; default: all); then select their tests with
#              CTest's -R or -L after --, the others' tests would be missing
# MINIAPP_VTK=OFF in the environment builds without VTK (a machine without libvtk9-dev).
# E.g. the whole suite: scripts/sanitize.sh; a part: scripts/sanitize.sh -t run_test -- -R 'restart'.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc) targets=()
while getopts "j:t:" opt; do
  case $opt in
    j) jobs=$OPTARG ;; t) targets+=(--target "$OPTARG") ;;
    *) sed -n '/^# Usage/,/^# E.g./p' "$0"; exit 2 ;;
  esac
done
shift $((OPTIND - 1))

cmake --preset sanitize -DMINIAPP_VTK="${MINIAPP_VTK:-ON}" >/dev/null
cmake --build build/sanitize -j "$jobs" "${targets[@]}"

# asan.options has fast_unwind_on_malloc=0: Open MPI's libraries keep no frame pointers, and only the
# slower unwinder finds their names in an allocation's stack, which lsan.supp matches.
options=$PWD/scripts/sanitizers
export ASAN_OPTIONS="include=$options/asan.options"
export UBSAN_OPTIONS="include=$options/ubsan.options"
export LSAN_OPTIONS="suppressions=$options/lsan.supp:print_suppressions=0"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
# One OpenMP thread per test, so that tests side by side do not oversubscribe the cores.
export OMP_NUM_THREADS=1
ctest --preset sanitize --parallel "$jobs" "$@"
