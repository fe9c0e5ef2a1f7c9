#!/usr/bin/env bash
# On a GPU machine with N ≥ 4 GPUs, after scripts/gpu-build.sh BUILD: calibrates the cost model on
# this device (kernels on GPU 0, halo updates and allreduces on 2..4 ranks, --comm mpi) and runs
# `miniapp predict --measure` for cavity-3d 32³ and the LES channel (WALE, PCG) on 1, 2 and 4 GPUs,
# and for taylor-green-3d 64³ on the FFT path (single-rank) on 1 GPU. Everything lands in OUT_DIR:
# the calibration file, each run's console output and its report folder (report.md, report.json,
# PNG plots when matplotlib is there), steps.txt with each step's exit code and time, and
# summary.txt (predicted against measured step time). Under 6 minutes; steps are skipped once
# MINIAPP_GPU_BUDGET seconds (default 330) are spent.
# Usage: MINIAPP_GPU_BUILD=BUILD [MINIAPP_GPU_BUDGET=330] scripts/gpu-predict.sh OUT_DIR
set -uo pipefail
out=${1:?usage: MINIAPP_GPU_BUILD=BUILD scripts/gpu-predict.sh OUT_DIR}
build=${MINIAPP_GPU_BUILD:-/tmp/mb}
budget=${MINIAPP_GPU_BUDGET:-330}
mkdir -p "$out"
out=$(cd "$out" && pwd)
source scripts/gpu-runtime.sh
bin=$build/miniapp/miniapp
calibration=$out/calibration.json
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv >"$out/device.txt" 2>&1
: >"$out/steps.txt"
step() {  # name, time limit (s), command...
  local name=$1 limit=$2 start=$SECONDS
  shift 2
  if ((SECONDS + limit > budget)); then echo "$name: skipped (budget)" >>"$out/steps.txt"; return; fi
  timeout "$limit" "$@" >"$out/$name.txt" 2>&1
  echo "$name: rc $? in $((SECONDS - start)) s" >>"$out/steps.txt"
}
mpi() { local np=$1; shift; mpirun -np "$np" --bind-to none -x LD_LIBRARY_PATH "$@"; }
predict() {  # name, ranks, case and options...
  local name=$1 np=$2
  shift 2
  mpi "$np" "$bin" predict "$@" --backend cuda --comm mpi --calibration "$calibration" --measure \
    --measure-steps 20 --devices 8 --output "$out/$name"
}
les=(channel --set 'numerics.poisson="pcg"')
fft=(taylor-green-3d --set 'numerics.poisson="fft"' --set 'mesh.cells=[64,64,64]')

# The calibration on 4 ranks measures the kernels once and the communication on 2, 3 and 4 ranks.
step cavity3d_np4 150 predict cavity3d_np4 4 cavity-3d --calibrate
step cavity3d_np2 30 predict cavity3d_np2 2 cavity-3d
step cavity3d_np1 30 predict cavity3d_np1 1 cavity-3d
step channel_np4 30 predict channel_np4 4 "${les[@]}"
step channel_np2 30 predict channel_np2 2 "${les[@]}"
step channel_np1 30 predict channel_np1 1 "${les[@]}"
step tg64_fft_np1 40 predict tg64_fft_np1 1 "${fft[@]}"

{
  echo "run | predicted ms/step | measured ms/step | error"
  for f in "$out"/*/report.json; do
    python3 -c 'import json, sys
r = json.load(open(sys.argv[1])); m = r.get("measured")
if m: print(sys.argv[2], "|", round(1e3 * m["predicted_step_seconds"], 3), "|", round(1e3 * m["step_seconds"], 3), "|", "%+.1f %%" % (100 * m["step_error"]))' \
      "$f" "$(basename "$(dirname "$f")")"
  done
} >"$out/summary.txt" 2>&1
cat "$out/steps.txt" "$out/summary.txt"
