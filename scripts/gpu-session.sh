#!/usr/bin/env bash
# One call on a lent one-GPU machine, within a time budget: the CUDA test suites, the CPU-vs-CUDA
# comparison of whole runs, and the benchmarks of the CUDA backend (kernels, PCG iteration with and
# without CUDA Graphs, time step), of AIP against Jacobi, and of the FFT Poisson path. Steps run in
# order of importance and are skipped once the budget is spent (each says so in steps.txt).
# Usage: MINIAPP_GPU_BUILD=BUILD [MINIAPP_GPU_BUDGET=540] scripts/gpu-session.sh OUT_DIR
# BUILD holds miniapp and the test executables (scripts/gpu-build.sh, or carried prebuilt); the
# Debian libraries they need are unpacked by scripts/gpu-runtime.sh.
set -uo pipefail
out=${1:?usage: scripts/gpu-session.sh OUT_DIR}
build=${MINIAPP_GPU_BUILD:-/tmp/mb}
budget=${MINIAPP_GPU_BUDGET:-540}
mkdir -p "$out"
source scripts/gpu-runtime.sh
bin=$build/miniapp/miniapp
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv >"$out/device.txt" 2>&1
: >"$out/steps.txt"
step cuda_tests 60 "$build/tests/cuda/cuda_kernels_test"
step aip_cuda_tests 40 "$build/tests/solvers/aip_cuda_test"
step fft_cuda_tests 60 "$build/tests/fft/cuda/fft_cuda_test"
for c in cavity taylor-green-3d; do
  for backend in cpu cuda; do
    step "compare_${c}_$backend" 40 "$bin" run "$c" --backend "$backend" --quiet --set run.max_steps=100 \
      --set 'output.fields=[]' --set 'mesh.cells=[32,32,32]' --set 'physics.les="wale"' \
      --set 'numerics.poisson="pcg"' --set "output.directory=\"/tmp/compare_${c}_$backend\""
    cp "/tmp/compare_${c}_$backend/diagnostics.csv" "$out/compare_${c}_$backend.csv" 2>/dev/null
  done
done
kernels() {  # name, limit, bench kernels options...
  local name=$1 limit=$2
  shift 2
  step "$name" "$limit" "$bin" bench kernels --backend cuda --repeat 100 --json "$out/$name.json" "$@"
}
kernels bench_hex_1e7 90 --meshes hex --mesh-sizes 1e7
kernels bench_tet_4e6_pcg 70 --meshes tet --mesh-sizes 4e6 --pcg
kernels bench_hex_1e5_pcg 40 --meshes hex --mesh-sizes 1e5 --pcg
step bench_step_tet40 40 "$bin" bench step taylor-green-3d --set 'physics.les="wale"' --set 'mesh.generator="tet"' \
  --set 'mesh.cells=[40,40,40]' --set 'numerics.poisson="pcg"' --backend cuda --steps 10 \
  --json "$out/bench_step_tet40.json"
step bench_fft_cuda 100 "$bin" bench fft --backend cuda --plane-cells 100000 --nper 64,128,256 --repeat 3 \
  --json "$out/bench_fft_cuda.json" --csv "$out/fft_iterations_cuda.csv"
step poisson_hex_walls 50 "$bin" poisson --backend cuda --mesh hex --cells 128,128,128 --periodic none \
  --preconditioner jacobi,aip1,aip2
step poisson_tet 50 "$bin" poisson --backend cuda --mesh tet --cells 48,48,48 --preconditioner jacobi,aip1,aip2
step memcheck 50 compute-sanitizer --tool memcheck "$build/tests/cuda/cuda_kernels_test" "[graph],[dot],[cg_kernels]"
step racecheck 40 compute-sanitizer --tool racecheck "$build/tests/cuda/cuda_kernels_test" "[dot],[cg_kernels]"
step memcheck_fft 40 compute-sanitizer --tool memcheck "$build/tests/fft/cuda/fft_cuda_test" \
  "CUDA batched kernels match the CPU reference"
cat "$out/steps.txt"
