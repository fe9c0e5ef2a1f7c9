#!/usr/bin/env bash
# On a GPU machine where `scripts/gpu-build.sh /tmp/mb` has built everything: the CUDA AIP tests
# (apply against the CPU, PCG with AIP on both backends) and Jacobi against AIP-1/2/3 with
# `miniapp poisson` on hex, tet and prism meshes. Results go to OUT_DIR.
# Usage: scripts/gpu-aip.sh OUT_DIR
set -uo pipefail
out=${1:?usage: scripts/gpu-aip.sh OUT_DIR}
build=${MINIAPP_GPU_BUILD:-/tmp/mb}
mkdir -p "$out"
export LD_LIBRARY_PATH=/tmp/miniapp-deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv >"$out/device.txt"
cmake --build "$build" -j "$(nproc)" --target aip_cuda_test aip_test solvers_test miniapp >"$out/build.txt" 2>&1 ||
  { tail -40 "$out/build.txt"; exit 1; }
timeout 120 "$build/tests/solvers/aip_cuda_test" >"$out/aip_cuda_test.txt" 2>&1; echo "aip_cuda_test rc $?" >>"$out/summary.txt"
timeout 120 "$build/tests/solvers/aip_test" >"$out/aip_test.txt" 2>&1; echo "aip_test rc $?" >>"$out/summary.txt"
timeout 150 compute-sanitizer --tool memcheck "$build/tests/solvers/aip_cuda_test" 2>&1 | tail -20 >"$out/memcheck.txt"
bin=$build/miniapp/miniapp
for mesh in "hex --cells 128,128,128" "tet --cells 48,48,48" "prism --cells 128,128,64 --periodic z" \
            "hex --cells 128,128,128 --periodic none"; do
  # shellcheck disable=SC2086
  timeout 120 "$bin" poisson --backend cuda --mesh $mesh --preconditioner jacobi,aip1,aip2,aip3 >>"$out/poisson.txt" 2>&1
done
cat "$out/summary.txt"
