#!/usr/bin/env bash
# On a lent one-GPU machine, from the repository root: every CUDA test suite on this tree (the CUDA
# sections of the solver suites; the time suite's device operators, on both backends: 2368 assertions
# on the CPU alone), then compute-sanitizer's memcheck over cuda_kernels_test.
# Usage: bash docs/results/h100_2026-12-06_cuda_suites/cuda_suites.sh OUT
set -uo pipefail
out=${1:?usage: cuda_suites.sh OUT}
build=build/gpu
budget=575
start=$SECONDS
mkdir -p "$out"
tools/gpu/build.sh "$build" cuda_kernels_test aip_cuda_test fft_cuda_test solvers_test amg_test amg_setup_test \
  time_test >"$out/build.txt" 2>&1
echo "build: rc $? in $((SECONDS - start)) s" >>"$out/build.txt"
source tools/gpu/runtime.sh
step cuda_kernels_test 90 "$build/tests/cuda/cuda_kernels_test"
step fft_cuda_test 90 "$build/tests/fft/cuda/fft_cuda_test"
step aip_cuda_test 60 "$build/tests/solvers/aip_cuda_test"
for suite in solvers amg amg_setup; do step "${suite}_test" 90 "$build/tests/solvers/${suite}_test" "[cuda]"; done
step time_test 90 "$build/tests/time/time_test" "[operators]"
for f in "$out"/*_test.txt; do echo "$(basename "$f" .txt): $(tail -2 "$f" | tr -s '\n' ' ')"; done >"$out/cuda_tests.txt"
step memcheck 240 compute-sanitizer --tool memcheck "$build/tests/cuda/cuda_kernels_test"
