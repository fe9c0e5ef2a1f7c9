#!/usr/bin/env bash
# On a GPU machine with N ≥ 2 GPUs (4 used when there), after tools/gpu/build.sh BUILD: calibrates the cost model on
# this device (kernels on GPU 0, halo updates and allreduces on 2..4 ranks, --comm mpi) and runs
# `miniapp predict --measure` for cavity-3d 32³ and the LES channel (WALE, PCG) on 1, 2 and 4 GPUs,
# and for taylor-green-3d 64³ on the FFT path (single-rank) on 1 GPU; then the same calibration and
# cavity-3d on 4 GPUs with the NCCL halo transport (its own calibration file: a calibration holds one
# transport). Everything lands in OUT_DIR: the calibration files, each run's console output and its
# report folder (report.md, report.json, PNG plots when matplotlib is there), steps.txt with each
# step's exit code and time, and summary.txt (predicted against measured step time). Under 8
# minutes; steps are skipped once MINIAPP_GPU_BUDGET seconds (default 450) are spent.
# Usage: MINIAPP_GPU_BUILD=BUILD [MINIAPP_GPU_BUDGET=450] tools/gpu/predict.sh OUT_DIR
set -uo pipefail
out=${1:?usage: MINIAPP_GPU_BUILD=BUILD tools/gpu/predict.sh OUT_DIR}
build=${MINIAPP_GPU_BUILD:-/tmp/mb}
budget=${MINIAPP_GPU_BUDGET:-450}
source tools/gpu/runtime.sh  # also: bin, gpus, $out/device.txt and an empty $out/steps.txt
top=$((gpus >= 4 ? 4 : 2))
# `predict NAME LIMIT NP CASE [OPTIONS...]`: miniapp predict --measure on NP ranks within LIMIT seconds
# (step of tools/gpu/runtime.sh: skipped once the budget is spent); $comm picks the halo transport (mpi
# unless set), and with it the calibration file.
predict() {
  local name=$1 limit=$2 np=$3 transport=${comm:-mpi}
  shift 3
  step "$name" "$limit" mpi "$np" "$bin" predict "$@" --backend cuda --comm "$transport" \
    --calibration "$out/calibration-$transport.json" --measure --measure-steps 20 --devices 8 --output "$out/$name"
}
les=(channel --set 'numerics.poisson="pcg"')
fft=(taylor-green-3d --set 'numerics.poisson="fft"' --set 'mesh.cells=[64,64,64]')

# The calibration on `top` ranks measures the kernels once and the communication on 2..top ranks.
predict "cavity3d_np$top" 150 "$top" cavity-3d --calibrate
((top > 2)) && predict cavity3d_np2 30 2 cavity-3d
predict cavity3d_np1 30 1 cavity-3d
predict "channel_np$top" 30 "$top" "${les[@]}"
((top > 2)) && predict channel_np2 30 2 "${les[@]}"
predict channel_np1 30 1 "${les[@]}"
predict tg64_fft_np1 40 1 "${fft[@]}"
comm=nccl predict "cavity3d_np${top}_nccl" 120 "$top" cavity-3d --calibrate

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
