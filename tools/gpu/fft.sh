#!/usr/bin/env bash
# On a GPU machine, after `tools/gpu/build.sh BUILD miniapp fft_test fft_cuda_test` (BUILD defaults to
# /tmp/mb): the FFT Poisson path's CUDA tests (and compute-sanitizer over the kernel test), the FFT
# benchmark on the GPU (100k triangles x Nper = 64, 128, 256) and on the CPU (smaller), the
# iterations-per-frequency plot, and 20 steps of the 3D Taylor-Green vortex with fft vs pcg on CUDA.
# A few minutes on one GPU. Results (logs, JSON, CSV, PNG) go to OUT_DIR.
# Usage: MINIAPP_GPU_BUILD=BUILD tools/gpu/fft.sh OUT_DIR
set -uo pipefail
out=${1:?usage: tools/gpu/fft.sh OUT_DIR}
mkdir -p "$out"
build=${MINIAPP_GPU_BUILD:-/tmp/mb}
bin=$build/miniapp/miniapp
export LD_LIBRARY_PATH=/tmp/miniapp-deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv >"$out/device.txt" 2>&1
start=$SECONDS
stamp() { echo "$1: $((SECONDS - start)) s" >>"$out/timeline.txt"; }

timeout 60 "$build/tests/fft/fft_test" >"$out/fft_tests.txt" 2>&1
timeout 90 "$build/tests/fft/cuda/fft_cuda_test" >"$out/fft_cuda_tests.txt" 2>&1
echo "exit $?" >>"$out/fft_cuda_tests.txt"
stamp tests
timeout 60 compute-sanitizer --tool memcheck "$build/tests/fft/cuda/fft_cuda_test" "CUDA batched kernels match the CPU reference" \
  2>&1 | grep -v "^=========     \(Host \)\?Frame" | head -60 >"$out/sanitizer_memcheck.txt"
timeout 45 compute-sanitizer --tool racecheck "$build/tests/fft/cuda/fft_cuda_test" "CUDA batched kernels match the CPU reference" \
  2>&1 | grep -v "^=========     \(Host \)\?Frame" | head -60 >"$out/sanitizer_racecheck.txt"
stamp sanitizer

timeout 130 "$bin" bench fft --backend cuda --plane-cells 100000 --nper 64,128,256 --repeat 5 \
  --json "$out/bench_fft_cuda.json" --csv "$out/fft_iterations_cuda.csv" >"$out/bench_fft_cuda.txt" 2>"$out/bench_fft_cuda.log"
stamp "bench cuda"
timeout 50 "$bin" bench fft --backend cpu --plane-cells 20000 --nper 64 --repeat 3 \
  --json "$out/bench_fft_cpu.json" --csv "$out/fft_iterations_cpu.csv" >"$out/bench_fft_cpu.txt" 2>"$out/bench_fft_cpu.log"
stamp "bench cpu"
python3 tools/plot/plot_fft_iterations.py "$out/fft_iterations_cuda.csv" "$out/fft_iterations_cuda.png" \
  >"$out/plot.txt" 2>&1

for poisson in fft pcg; do
  timeout 40 "$bin" run taylor-green-3d --backend cuda --set run.max_steps=20 --set 'output.fields=[]' \
    --set "numerics.poisson=\"$poisson\"" --set 'mesh.cells=[64,64,64]' \
    --set "output.directory=/tmp/tg_fft_$poisson" >"$out/tg64_cuda_$poisson.txt" 2>&1
  cp "/tmp/tg_fft_$poisson/diagnostics.csv" "$out/tg64_cuda_$poisson.csv" 2>/dev/null
done
stamp "time loop"
