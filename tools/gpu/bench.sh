#!/usr/bin/env bash
# On a GPU machine, after tools/gpu/build.sh BUILD miniapp: kernel benchmarks against cuSPARSE and
# cuBLAS, Poisson solves on both backends, a whole LES time step, and the cost model's prediction.
# Usage: MINIAPP_GPU_BUILD=BUILD tools/gpu/bench.sh OUT_DIR
set -uo pipefail
out=${1:?usage: tools/gpu/bench.sh OUT_DIR}
mkdir -p "$out"
build=${MINIAPP_GPU_BUILD:-build/gpu}
bin=$build/miniapp/miniapp
export LD_LIBRARY_PATH=/tmp/miniapp-deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv >"$out/device.txt"
timeout 200 "$bin" bench kernels --backend cuda --meshes hex --mesh-sizes 1e5,1e6,1e7 --repeat 100 \
  --json "$out/bench_hex.json" >"$out/bench_hex.txt" 2>"$out/bench_hex.log"
timeout 100 "$bin" bench kernels --backend cuda --meshes tet,prism --mesh-sizes 4e6 --repeat 100 \
  --json "$out/bench_tet_prism.json" >"$out/bench_tet_prism.txt" 2>"$out/bench_tet_prism.log"
for p in jacobi aip1; do
  for b in cpu cuda; do
    timeout 60 "$bin" poisson --backend "$b" --cells 64,64,64 --preconditioner "$p" >>"$out/poisson.txt" 2>&1
  done
done
timeout 60 "$bin" run taylor-green-3d --backend cuda --quiet --set run.max_steps=50 --set physics.les=wale \
  --set 'output.fields=[]' --set output.directory=/tmp/tg64 >"$out/tg64_cuda.txt" 2>&1
timeout 120 "$bin" predict cavity-3d --backend cuda --calibrate --measure --output /tmp/predict-c3d \
  >"$out/predict_cavity3d.txt" 2>&1
cp /tmp/predict-c3d/report.md "$out/predict_cavity3d_report.md" 2>/dev/null
