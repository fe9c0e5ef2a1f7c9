#!/usr/bin/env bash
# On a lent one-GPU machine, from the repository root: build (tools/gpu/build.sh), then, one at a time
# (the CPU suites' OpenMP teams oversubscribe the host when several run at once), the tests whose
# outcome a GPU host changes: the CUDA suites and the [cuda] cases of the CPU suites, which CI skips,
# time_test "[operators]", whose CUDA half runs only here, the CLI suite and every multi-rank test
# (label mpi), whose runs may pick the device here; then the CPU and CUDA backends compared over 100
# steps of the cavity and of the 3D Taylor-Green case with LES, and compute-sanitizer over the CUDA
# kernels' suite (racecheck with the device loops off: it fails inside conditional graph nodes). Steps
# run in that order and are skipped once the budget (seconds, the build included) is spent; each
# one's rc and seconds go to OUT/steps.txt, its output to OUT/NAME.txt.
# Usage: [MINIAPP_GPU_BUDGET=560] tools/gpu/check.sh OUT
set -uo pipefail
out=${1:?usage: tools/gpu/check.sh OUT}
build=${MINIAPP_GPU_BUILD:-build/gpu}
budget=${MINIAPP_GPU_BUDGET:-560}
mkdir -p "$out"
tools/gpu/build.sh "$build" miniapp cuda_kernels_test fft_cuda_test aip_cuda_test solvers_test amg_test \
  amg_setup_test time_test cli_test parallel_test collective_failure_test parallel_case_test \
  watchdog_exchange_test predict_ranks_test >"$out/build.txt" 2>&1
echo "build: rc $? in $SECONDS s" >>"$out/build.txt"
source tools/gpu/runtime.sh  # also: bin, $out/device.txt and an empty $out/steps.txt
date -u >>"$out/device.txt"
step fft_cuda 240 "$build/tests/fft/cuda/fft_cuda_test"
step time_operators 120 "$build/tests/time/time_test" "[operators]"
step cli 120 "$build/tests/cli/cli_test"
step mpi 240 ctest --test-dir "$build" -L mpi --output-on-failure
step cuda_kernels 200 "$build/tests/cuda/cuda_kernels_test"
step aip_cuda 60 "$build/tests/solvers/aip_cuda_test"
step solvers_cuda 60 "$build/tests/solvers/solvers_test" "[cuda]"
step amg_cuda 120 "$build/tests/solvers/amg_test" "[cuda]"
step amg_setup_cuda 120 "$build/tests/solvers/amg_setup_test" "[cuda]"
compare() {  # case, extra overrides...: each backend's run and its diagnostics
  local name=$1; shift
  for backend in cpu cuda; do
    step "${name}_$backend" 100 "$bin" run "$name" --backend "$backend" --quiet --set run.max_steps=100 \
      --set 'output.fields=[]' --set "output.directory=\"/tmp/cmp_${name}_$backend\"" "$@"
    cp "/tmp/cmp_${name}_$backend/diagnostics.csv" "$out/${name}_$backend.csv" 2>/dev/null
  done
}
compare cavity
compare taylor-green-3d --set physics.les=\"wale\" --set 'mesh.cells=[48,48,48]'
step sanitizer_memcheck 150 compute-sanitizer --tool memcheck "$build/tests/cuda/cuda_kernels_test"
MINIAPP_NO_DEVICE_LOOPS=1 step sanitizer_racecheck 150 compute-sanitizer --tool racecheck "$build/tests/cuda/cuda_kernels_test"
