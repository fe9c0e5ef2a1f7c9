#!/usr/bin/env bash
# On a lent one-GPU machine, from the repository root: the test suites that need a device or that run
# ranks, one test at a time (the CPU suites' OpenMP teams oversubscribe the host when several run at
# once): the CUDA suites, the device-operator cases of time_test, the CLI suite and every multi-rank
# test (label mpi). Results go to OUT: steps.txt (rc and seconds of each), one log per suite.
# Usage: [MINIAPP_GPU_BUDGET=560] tools/gpu/suites.sh OUT   (seconds for the whole call, build included)
set -uo pipefail
out=${1:?usage: tools/gpu/suites.sh OUT}
build=build/gpu
budget=${MINIAPP_GPU_BUDGET:-560}
mkdir -p "$out"
start=$SECONDS
tools/gpu/build.sh "$build" miniapp cuda_kernels_test fft_cuda_test time_test cli_test \
  parallel_test collective_failure_test parallel_case_test watchdog_exchange_test predict_ranks_test \
  >"$out/build.txt" 2>&1
echo "build: rc $? in $((SECONDS - start)) s" >>"$out/build.txt"
source tools/gpu/runtime.sh
date -u >>"$out/device.txt"
step fft_cuda 240 "$build/tests/fft/cuda/fft_cuda_test"
step time_operators 120 "$build/tests/time/time_test" "[operators]"
step cli 120 "$build/tests/cli/cli_test"
step mpi 240 ctest --test-dir "$build" -L mpi --output-on-failure
step cuda_kernels 200 "$build/tests/cuda/cuda_kernels_test"
