#!/usr/bin/env bash
# On a lent GPU machine: the standalone device loop (conditional_loop.cu) under compute-sanitizer in
# each of its variants, and miniapp's loop tests under racecheck and synccheck, to tell a tool's
# failure from ours (docs/results/h100_2026-11-23_sanitizer_loop/README.md).
# Usage: MINIAPP_GPU_BUILD=BUILD tools/ubench/sanitizer_loop.sh OUT_DIR
# BUILD holds conditional_loop (nvcc -O3 -arch=sm_90 -std=c++17 -o BUILD/conditional_loop
# tools/ubench/conditional_loop.cu) and tests/cuda/cuda_kernels_test.
set -uo pipefail
out=${1:?usage: tools/ubench/sanitizer_loop.sh OUT_DIR}
build=${MINIAPP_GPU_BUILD:-/tmp/mb}
budget=${MINIAPP_GPU_BUDGET:-400}
source tools/gpu/runtime.sh
repro=$build/conditional_loop
tests=$build/tests/cuda/cuda_kernels_test
loop_test="KernelGraph loops: the device repeats the body while its condition kernel says so"
for variant in "" CAPTURE_BODY DESTROY_EARLY SHARED TRIAL "SHARED TRIAL" "SHARED DESTROY_EARLY" \
  "SHARED TRIAL DESTROY_EARLY" REDUCE=1 REDUCE=2 REDUCE=3 "SHARED REDUCE=1"; do
  name=$(echo "${variant:-plain}" | tr ' =' '__')
  (
    for setting in $variant; do [[ $setting == *=* ]] && export "$setting" || export "$setting=1"; done
    step "repro_race_$name" 30 compute-sanitizer --tool racecheck "$repro"
  )
done
for tool in memcheck initcheck synccheck; do
  (export REDUCE=2; step "repro_${tool}_REDUCE_2" 30 compute-sanitizer --tool "$tool" "$repro")
done
(export REDUCE=2; step repro_plain_REDUCE_2 30 "$repro")
step race_loop 60 compute-sanitizer --tool racecheck "$tests" "$loop_test"
step synccheck_loop 60 compute-sanitizer --tool synccheck "$tests" "$loop_test"
step synccheck_kernels 90 compute-sanitizer --tool synccheck "$tests" "[dot],[cg_kernels]"
cat "$out/steps.txt"
