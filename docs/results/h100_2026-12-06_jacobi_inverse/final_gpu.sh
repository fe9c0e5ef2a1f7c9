#!/usr/bin/env bash
# Throwaway: every CUDA test suite on this tree.
set -u
t0=$(date +%s)
tools/gpu/build.sh build/gpu miniapp cuda_kernels_test fft_cuda_test aip_cuda_test solvers_test amg_test amg_setup_test > /tmp/build.txt 2>&1; echo "build rc=$? $(( $(date +%s)-t0 )) s" | tee -a $OUT/final_check.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >> $OUT/final_check.txt
run_test() { local bin; bin=$(find build/gpu/tests -name "$1" -type f | head -1); shift
  timeout 200 "$bin" "$@" > /tmp/t.txt 2>&1; echo "$(basename $bin) $* rc=$? $(tail -2 /tmp/t.txt | tr '\n' ' ') $(( $(date +%s)-t0 )) s" | tee -a $OUT/final_check.txt; }
run_test cuda_kernels_test
run_test fft_cuda_test
run_test aip_cuda_test
run_test solvers_test "[cuda]"
run_test amg_test "[cuda]"
run_test amg_setup_test "[cuda]"
