#!/usr/bin/env bash
# One call on a lent one-GPU machine, within a time budget: the CUDA test suites, CPU against CUDA
# over whole runs, the time step (small and large meshes), the CuPy CG comparison, compute-sanitizer,
# and `miniapp predict --measure` on one GPU for five cases (two LES ones and an FFT-path one).
# `MINIAPP_GPU_PART=kernels` runs instead the kernel and FFT benchmarks and AIP against Jacobi in the
# time loop of the shipped cases; `MINIAPP_GPU_PART=fft` the FFT path alone (its CUDA tests under the
# sanitizers, its benchmark, CPU against CUDA over a whole run, the prediction of an FFT-path case);
# `MINIAPP_GPU_PART=step` the CUDA tests and the LES time-step benchmarks (with their CUPTI timelines),
# again with the AIP form that the byte count did not choose;
# `MINIAPP_GPU_PART=predict` the CUDA tests, CPU against CUDA on a Taylor–Green case, the LES
# time-step benchmarks and the cost model (one calibration, five cases predicted against measured);
# `MINIAPP_GPU_PART=check` the sanitizers over every case of the CUDA test suites (memcheck; racecheck
# and synccheck with the device loops off, MINIAPP_NO_DEVICE_LOOPS=1, the same kernels replayed by the
# host: inside a device loop those two tools fail on kernels that synchronise their block,
# docs/results/h100_2026-11-23_sanitizer_loop/) and the LES step at the paper's mesh size (5.5·10⁶
# tets); `MINIAPP_GPU_PART=bench` the kernel benchmark on the Laplacian and the convection operator of
# hex, tet and prism meshes of 10⁵ to 10⁷ cells, and the LES step at 3.1·10⁶ tets;
# `MINIAPP_GPU_PART=bench_large` the same benchmark at 3·10⁷ cells, for the mesh kinds in
# MINIAPP_BENCH_MESHES (default "hex tet prism"; one per call fits the 10-minute limit);
# `MINIAPP_GPU_PART=share` the probe of what CUPTI's tracing does to kernel durations
# (tools/ubench/trace_overhead.cu, built into BUILD/ubench/trace_overhead) and the LES steps (the two
# small meshes twice, and the paper's size, 5.5·10⁶ tets), for the step's SpMV+AXPY+DOT share of its
# untraced time;
# `MINIAPP_GPU_PART=ratio` the LES step on the host's CPU backend (all its cores) and on the GPU, each
# with its copy bandwidth measured in the same run, for the GPU/CPU ratio of the two. Steps run in
# order of importance and are skipped once the budget is spent (each says so in steps.txt).
# Usage: MINIAPP_GPU_BUILD=BUILD [MINIAPP_GPU_BUDGET=540] tools/gpu/session.sh OUT_DIR
# BUILD holds miniapp and the test executables (built with -DMINIAPP_VTK=OFF, carried prebuilt); the
# Debian libraries they need are unpacked by tools/gpu/runtime.sh.
set -uo pipefail
out=${1:?usage: tools/gpu/session.sh OUT_DIR}
build=${MINIAPP_GPU_BUILD:-/tmp/mb}
budget=${MINIAPP_GPU_BUDGET:-540}
source tools/gpu/runtime.sh  # also: bin, gpus, $out/device.txt and an empty $out/steps.txt
step cuda_tests 60 "$build/tests/cuda/cuda_kernels_test"
step aip_cuda_tests 40 "$build/tests/solvers/aip_cuda_test"
step fft_cuda_tests 60 "$build/tests/fft/cuda/fft_cuda_test"
step solvers_cuda_tests 40 "$build/tests/solvers/solvers_test" "[cuda]"
kernels() {  # name, limit, bench kernels options...
  local name=$1 limit=$2
  shift 2
  step "$name" "$limit" "$bin" bench kernels --backend cuda --repeat 100 --json "$out/$name.json" "$@"
}
bench_step() {  # name, generator, N, steps[, limit in s[, backend[, options...]]]: the LES Taylor-Green step on an N³ box
  step "$1" "${5:-60}" "$bin" bench step taylor-green-3d --set 'physics.les="wale"' --set "mesh.generator=\"$2\"" \
    --set "mesh.cells=[$3,$3,$3]" --set 'numerics.poisson="pcg"' --backend "${6:-cuda}" --steps "$4" \
    --json "$out/$1.json" "${@:7}"
}
# CPU against CUDA over 100 steps of a case (the CUDA steps replay their sub-steps from graphs).
compare_backends() {  # case
  local c=$1 backend
  for backend in cpu cuda; do
    step "compare_${c}_$backend" 40 "$bin" run "$c" --backend "$backend" --quiet --set run.max_steps=100 \
      --set 'output.fields=[]' --set 'mesh.cells=[32,32,32]' --set 'physics.les="wale"' \
      --set 'numerics.poisson="pcg"' --set "output.directory=\"/tmp/compare_${c}_$backend\""
    cp "/tmp/compare_${c}_$backend/diagnostics.csv" "$out/compare_${c}_$backend.csv" 2>/dev/null
  done
}
# The cost model on this GPU: one calibration, then predicted against measured steps.
predict() {  # name, limit, case options...
  local name=$1 limit=$2
  shift 2
  step "$name" "$limit" "$bin" predict "$@" --backend cuda --calibration "$out/calibration.json" --measure \
    --measure-steps 20 --devices 4 --no-plots --output "$out/$name"
}
bench_steps() {  # the LES step on 3.8·10⁵ tets, 2.6·10⁵ hexahedra and 3.1·10⁶ tets
  bench_step bench_step_tet40 tet 40 10
  bench_step bench_step_hex64 hex 64 10
  bench_step bench_step_tet80 tet 80 5
}
aip_forms() {  # the same steps with the AIP form the byte count did not choose
  local form=(--set 'numerics.aip_form="two-pass"')
  bench_step bench_step_tet40_two_pass tet 40 10 60 cuda "${form[@]}"
  bench_step bench_step_tet80_two_pass tet 80 5 60 cuda "${form[@]}"
  bench_step bench_step_hex64_product hex 64 10 60 cuda --set 'numerics.aip_form="product"'
}
predict_cases() {  # one calibration, then five cases (two LES, one on the FFT path)
  predict predict_cavity3d 200 cavity-3d --calibrate
  predict predict_channel 40 channel --set 'numerics.poisson="pcg"'
  predict predict_tg64_fft 40 taylor-green-3d --set 'numerics.poisson="fft"' --set 'mesh.cells=[64,64,64]'
  predict predict_tg64_pcg 40 taylor-green-3d --set 'numerics.poisson="pcg"' --set 'physics.les="wale"' \
    --set 'mesh.cells=[64,64,64]'
  predict predict_cavity 40 cavity
}
if [[ ${MINIAPP_GPU_PART:-} == step ]]; then  # the CUDA suite and the LES steps, with their timelines
  bench_steps
  aip_forms
  cat "$out/steps.txt"
  exit 0
fi
if [[ ${MINIAPP_GPU_PART:-} == share ]]; then
  step trace_overhead 60 "$build/ubench/trace_overhead"
  bench_steps
  bench_step bench_step_tet40_rerun tet 40 10
  bench_step bench_step_hex64_rerun hex 64 10
  bench_step bench_step_tet97 tet 97 5 150
  cat "$out/steps.txt"
  exit 0
fi
if [[ ${MINIAPP_GPU_PART:-} == bench ]]; then
  for mesh in hex tet prism; do
    kernels "bench_${mesh}" 150 --meshes "$mesh" --mesh-sizes 1e5,1e6,4e6,1e7
  done
  bench_step bench_step_tet80 tet 80 5
  cat "$out/steps.txt"
  exit 0
fi
if [[ ${MINIAPP_GPU_PART:-} == bench_large ]]; then  # one mesh kind per call: each takes minutes
  for mesh in ${MINIAPP_BENCH_MESHES:-hex tet prism}; do
    kernels "bench_${mesh}_3e7" 450 --meshes "$mesh" --mesh-sizes 3e7
  done
  cat "$out/steps.txt"
  exit 0
fi
if [[ ${MINIAPP_GPU_PART:-} == ratio ]]; then
  for mesh in "tet 40" "hex 64"; do
    set -- $mesh
    bench_step "ratio_${1}$2_cpu" "$1" "$2" 3 150 cpu
    bench_step "ratio_${1}$2_cuda" "$1" "$2" 10
  done
  cat "$out/steps.txt"
  exit 0
fi
if [[ ${MINIAPP_GPU_PART:-} == check ]]; then
  step memcheck 240 compute-sanitizer --tool memcheck "$build/tests/cuda/cuda_kernels_test"
  step memcheck_aip 60 compute-sanitizer --tool memcheck "$build/tests/solvers/aip_cuda_test"
  step memcheck_solvers 90 compute-sanitizer --tool memcheck "$build/tests/solvers/solvers_test" "[cuda]"
  step memcheck_fft 60 compute-sanitizer --tool memcheck "$build/tests/fft/cuda/fft_cuda_test"
  # synccheck first: it takes seconds, racecheck minutes.
  for tool in synccheck racecheck; do
    step "${tool}_no_loops" 240 env MINIAPP_NO_DEVICE_LOOPS=1 compute-sanitizer --tool "$tool" \
      "$build/tests/cuda/cuda_kernels_test"
    step "${tool}_solvers_no_loops" 120 env MINIAPP_NO_DEVICE_LOOPS=1 compute-sanitizer --tool "$tool" \
      "$build/tests/solvers/solvers_test" "[cuda]"
    step "${tool}_aip" 60 compute-sanitizer --tool "$tool" "$build/tests/solvers/aip_cuda_test"
    step "${tool}_fft" 200 compute-sanitizer --tool "$tool" "$build/tests/fft/cuda/fft_cuda_test"
  done
  bench_step bench_step_tet97 tet 97 5 150
  cat "$out/steps.txt"
  exit 0
fi
if [[ ${MINIAPP_GPU_PART:-} == predict ]]; then
  compare_backends taylor-green-3d
  bench_steps
  predict_cases
  cat "$out/steps.txt"
  exit 0
fi
if [[ ${MINIAPP_GPU_PART:-} == fft ]]; then
  step memcheck_fft 60 compute-sanitizer --tool memcheck "$build/tests/fft/cuda/fft_cuda_test"
  step racecheck_fft 60 compute-sanitizer --tool racecheck "$build/tests/fft/cuda/fft_cuda_test" \
    "CUDA batched kernels match the CPU reference"
  step bench_fft_cuda 120 "$bin" bench fft --backend cuda --plane-cells 100000 --nper 64,128,256 --repeat 3 \
    --json "$out/bench_fft_cuda.json" --csv "$out/fft_iterations_cuda.csv"
  for backend in cpu cuda; do
    step "compare_fft_$backend" 60 "$bin" run taylor-green-3d --backend "$backend" --quiet --set run.max_steps=100 \
      --set 'output.fields=[]' --set 'mesh.cells=[32,32,32]' --set 'numerics.poisson="fft"' \
      --set "output.directory=\"/tmp/compare_fft_$backend\""
    cp "/tmp/compare_fft_$backend/diagnostics.csv" "$out/compare_fft_$backend.csv" 2>/dev/null
  done
  cat "$out/steps.txt"
  exit 0
fi
if [[ ${MINIAPP_GPU_PART:-} == kernels ]]; then
  kernels bench_hex_1e7 90 --meshes hex --mesh-sizes 1e7
  step bench_fft_cuda 100 "$bin" bench fft --backend cuda --plane-cells 100000 --nper 64,128,256 --repeat 3 \
    --json "$out/bench_fft_cuda.json" --csv "$out/fft_iterations_cuda.csv"
  kernels bench_tet_4e6_pcg 70 --meshes tet --mesh-sizes 4e6 --pcg
  # AIP-1 against Jacobi in the time loop: the shipped cases with their own meshes and PCG, and a
  # larger cavity-3d; ms/step and Poisson iterations per step are in each summary.
  loop() {  # case, steps, preconditioner, extra --set options...
    local c=$1 steps=$2 pc=$3
    shift 3
    step "loop_${c}_$pc" 40 "$bin" run "$c" --backend cuda --quiet --set run.max_steps="$steps" \
      --set "numerics.preconditioner=\"$pc\"" --set 'numerics.poisson="pcg"' --set 'output.fields=[]' \
      --set "output.directory=\"/tmp/loop_${c}_$pc\"" "$@"
  }
  for pc in jacobi aip1; do
    loop cavity 3000 "$pc"
    loop cavity-3d 300 "$pc"
    loop taylor-green-2d 1000 "$pc"
    loop channel 200 "$pc"
    loop cavity-3d 30 "$pc" --set 'mesh.cells=[128,128,128]'
  done
  cat "$out/steps.txt"
  exit 0
fi
compare_backends cavity
compare_backends taylor-green-3d
bench_steps
# CuPy's CG on the pressure matrix of a box with walls and of a periodic box.
for periodic in none xyz; do
  step "poisson_$periodic" 60 "$bin" poisson --backend cuda --mesh hex --cells 128,128,128 --periodic "$periodic" \
    --preconditioner none,jacobi,aip1 --export-matrix "/tmp/p128_$periodic" --json "$out/poisson_$periodic.json"
  step "cupy_$periodic" 60 python3 tools/compare/cupy_cg_compare.py "/tmp/p128_$periodic" "$out/poisson_$periodic.json" \
    --repeat 3
done
step memcheck 60 compute-sanitizer --tool memcheck "$build/tests/cuda/cuda_kernels_test" "[graph],[dot],[cg_kernels]"
step racecheck 60 compute-sanitizer --tool racecheck "$build/tests/cuda/cuda_kernels_test" "[dot],[cg_kernels]"
step memcheck_fft 40 compute-sanitizer --tool memcheck "$build/tests/fft/cuda/fft_cuda_test"
predict_cases
cat "$out/steps.txt"
