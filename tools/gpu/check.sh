#!/usr/bin/env bash
# On a GPU machine: build (tools/gpu/build.sh), run the test suite with the CUDA tests, run
# compute-sanitizer over the CUDA tests, and compare the CPU and CUDA backends over 100 steps of the
# cavity and of the 3D Taylor-Green case with LES. Results go to OUT_DIR.
# Usage: tools/gpu/check.sh OUT_DIR
set -uo pipefail
out=${1:?usage: tools/gpu/check.sh OUT_DIR}
mkdir -p "$out"
build=${MINIAPP_GPU_BUILD:-build/gpu}
start=$SECONDS
tools/gpu/build.sh "$build" miniapp cuda_kernels_test solvers_test 2>&1 | tail -20 >"$out/build.txt"
echo "build: $((SECONDS - start)) s" >>"$out/build.txt"
export LD_LIBRARY_PATH=/tmp/miniapp-deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv >"$out/device.txt"
timeout 120 "$build/tests/cuda/cuda_kernels_test" >"$out/cuda_tests.txt" 2>&1
timeout 120 "$build/tests/solvers/solvers_test" >"$out/solvers_tests.txt" 2>&1
bin=$build/miniapp/miniapp
compare() {  # case, extra overrides...
  local name=$1; shift
  for backend in cpu cuda; do
    timeout 100 "$bin" run "$name" --backend "$backend" --quiet --set run.max_steps=100 --set 'output.fields=[]' \
      --set "output.directory=/tmp/cmp_${name}_$backend" "$@" >"$out/${name}_$backend.txt" 2>&1
    cp "/tmp/cmp_${name}_$backend/diagnostics.csv" "$out/${name}_$backend.csv"
  done
}
compare cavity
compare taylor-green-3d --set physics.les=wale --set 'mesh.cells=[48,48,48]'
for tool in memcheck racecheck; do
  timeout 150 compute-sanitizer --tool "$tool" "$build/tests/cuda/cuda_kernels_test" 2>&1 | grep -v "^=========     \(Host \)\?Frame" | head -80 >"$out/sanitizer_$tool.txt"
done
