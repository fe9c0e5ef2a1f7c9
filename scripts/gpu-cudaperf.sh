#!/usr/bin/env bash
# On one GPU (H200), after `scripts/gpu-build.sh /tmp/mb` built everything: the measurements of the
# CUDA performance work of issue 4 (docs/drafts/cudaperf.md) and the GPU tests of what it changed.
#   1. DOT at 10^7 entries, synchronous ("dot") and with its result left on the device ("dot_dev"),
#      next to AXPY and the copy bandwidth; sELL SpMV at 10^7 (hex) and 4·10^6 rows (tet, prism).
#   2./3. One PCG iteration with AIP-1, unprofiled, with and without CUDA Graphs, on 10^5 and 4·10^6
#      rows, against its bandwidth-bound time (bench kernels --pcg).
#   4. The whole LES step of the earlier measurement (tet 40³ × 6), to compare with 8.17 ms/step.
#   5. cuda_kernels_test (every CUDA kernel against the CPU, graphs bitwise against plain launches),
#      then compute-sanitizer memcheck and racecheck over the tests of the changed kernels.
# Expected run time ≈ 3 minutes (mesh generation and AIP set-up on the host are most of it); each
# step has its own time limit and its seconds are logged in OUT_DIR/steps.txt.
# Usage: MINIAPP_GPU_BUILD=/tmp/mb scripts/gpu-cudaperf.sh OUT_DIR
set -uo pipefail
out=${1:?usage: MINIAPP_GPU_BUILD=BUILD scripts/gpu-cudaperf.sh OUT_DIR}
mkdir -p "$out"
build=${MINIAPP_GPU_BUILD:-/tmp/mb}
bin=$build/miniapp/miniapp
tests=$build/tests/cuda/cuda_kernels_test
for f in "$bin" "$tests"; do
  [ -x "$f" ] || { echo "missing $f: run scripts/gpu-build.sh $build first" >&2; exit 1; }
done
export LD_LIBRARY_PATH=/tmp/miniapp-deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv >"$out/device.txt" 2>&1

step() {  # name, time limit (s), command...: runs it, logs rc and seconds to steps.txt
  local name=$1 limit=$2 start=$SECONDS
  shift 2
  timeout "$limit" "$@"
  echo "$name: rc $? in $((SECONDS - start)) s" >>"$out/steps.txt"
}
kernels() {  # name, time limit, bench kernels options...
  local name=$1 limit=$2
  shift 2
  step "$name" "$limit" "$bin" bench kernels --backend cuda --repeat 100 --json "$out/$name.json" "$@" \
    >"$out/$name.txt" 2>"$out/$name.log"
}

: >"$out/steps.txt"
kernels bench_hex_1e5_pcg 40 --meshes hex --mesh-sizes 1e5 --pcg
kernels bench_hex_1e7 90 --meshes hex --mesh-sizes 1e7
kernels bench_tet_4e6_pcg 70 --meshes tet --mesh-sizes 4e6 --pcg
kernels bench_prism_4e6 50 --meshes prism --mesh-sizes 4e6
step bench_step_tet40 40 "$bin" bench step taylor-green-3d --set 'physics.les="wale"' --set 'mesh.generator="tet"' \
  --set 'mesh.cells=[40,40,40]' --backend cuda --steps 10 --json "$out/bench_step_tet40.json" \
  >"$out/bench_step_tet40.txt" 2>"$out/bench_step_tet40.log"
step cuda_tests 60 "$tests" --durations yes >"$out/cuda_tests.txt" 2>&1
step memcheck 40 compute-sanitizer --tool memcheck "$tests" "[graph],[dot],[cg_kernels]" >"$out/sanitizer_memcheck.txt" 2>&1
step racecheck 40 compute-sanitizer --tool racecheck "$tests" "[dot],[cg_kernels]" >"$out/sanitizer_racecheck.txt" 2>&1
# The lines to read first: DOT, AXPY and SpMV rows of the large meshes, and the PCG tables.
grep -h -E "^(dot|dot_dev|axpy|spmv_sell) .*(215|87|126)\^3|copy bandwidth" "$out"/bench_*.txt >"$out/summary.txt"
grep -h -A8 "^PCG iteration" "$out"/bench_*pcg.txt >>"$out/summary.txt"
grep -h -E "time per step|PCG iteration " "$out/bench_step_tet40.txt" >>"$out/summary.txt"
tail -n 3 "$out/cuda_tests.txt" >>"$out/summary.txt"
cat "$out/steps.txt" >>"$out/summary.txt"
