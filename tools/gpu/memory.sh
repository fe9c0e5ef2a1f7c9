#!/usr/bin/env bash
# The device-memory estimate against the CUDA set-up's allocations, and cuFFT's work areas:
# the "[memory]" tests of cuda_kernels_test and fft_cuda_test, the cuFFT work-area probe
# (tools/gpu/probe/cufft_work.cpp, target cufft_work), and the start-up lines of Taylor–Green on the
# FFT path.
# Usage: MINIAPP_GPU_BUILD=BUILD tools/gpu/memory.sh OUT   (BUILD from tools/gpu/build.sh with the
# targets miniapp cuda_kernels_test fft_cuda_test cufft_work)
set -uo pipefail
out=${1:?usage: tools/gpu/memory.sh OUT}
build=${MINIAPP_GPU_BUILD:?set MINIAPP_GPU_BUILD}
mkdir -p "$out"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv >"$out/device.txt"
"$build/tools/cufft_work" >"$out/cufft_work.txt"
{
  "$build/tests/cuda/cuda_kernels_test" "[memory]"; echo "cuda_kernels_test [memory]: exit $?"
  "$build/tests/fft/cuda/fft_cuda_test"; echo "fft_cuda_test: exit $?"
} >"$out/tests.txt" 2>&1
for n in 128 256; do
  "$build/miniapp/miniapp" run taylor-green-3d --backend cuda --set "mesh.cells=[$n,$n,$n]" \
    --set 'numerics.poisson="fft"' --set run.max_steps=3 --set 'output.fields=[]' \
    --set output.checkpoint_interval=0 --set "output.directory=\"/tmp/memory_tg$n\"" 2>&1 |
    grep -E "device memory|fits on|FFT Poisson|start-up" >"$out/tg${n}_startup.txt"
done
