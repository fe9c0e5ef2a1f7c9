#!/usr/bin/env bash
# On a one-GPU machine, after tools/gpu/build.sh BUILD: the cost model on cases that use AMG. One
# calibration (`--calibrate`, on cavity-3d 32³ with AMG), then `miniapp predict --measure` on that
# calibration for cavity-3d 128³ (AMG by default), the LES Taylor-Green vortex at 64³ (WALE, 3D PCG
# with AMG), cavity-3d 32³ with AIP-1 (the control: a unit whose calls per iteration do not change
# with the mesh) and the channel as shipped (numerics.poisson = "auto": the path it keeps, PCG with AMG
# on a GPU, counted after the steps that choose it). Each run's console output and report.md land in OUT_DIR, with steps.txt and
# summary.txt (predicted against measured step time). About 4 minutes; steps are skipped once
# MINIAPP_GPU_BUDGET seconds (default 300) are spent.
# Usage: MINIAPP_GPU_BUILD=BUILD [MINIAPP_GPU_BUDGET=300] tools/gpu/predict-amg.sh OUT_DIR
set -uo pipefail
out=${1:?usage: MINIAPP_GPU_BUILD=BUILD tools/gpu/predict-amg.sh OUT_DIR}
build=${MINIAPP_GPU_BUILD:-/tmp/mb}
budget=${MINIAPP_GPU_BUDGET:-300}
source tools/gpu/runtime.sh  # also: bin, $out/device.txt and an empty $out/steps.txt
git log -1 --format='%H %cI' >"$out/commit.txt" 2>/dev/null
# `predict NAME LIMIT CASE [OPTIONS...]`: miniapp predict --measure on the shared calibration.
predict() {
  local name=$1 limit=$2
  shift 2
  step "$name" "$limit" "$bin" predict "$@" --backend cuda --calibration "$out/calibration.json" --measure \
    --measure-steps 20 --devices 1 --no-plots --output "/tmp/predict_$name"
  cp "/tmp/predict_$name/report.md" "$out/$name.md" 2>/dev/null
  python3 -c 'import json, sys
r = json.load(open(sys.argv[1])); m = r["measured"]
print(sys.argv[2], "|", round(1e3 * m["predicted_step_seconds"], 3), "|", round(1e3 * m["step_seconds"], 3), "|",
      "%+.1f %%" % (100 * m["step_error"]))' "/tmp/predict_$name/report.json" "$name" >>"$out/summary.txt" 2>&1
}
amg=(--set 'numerics.preconditioner="amg"')
echo "run | predicted ms/step | measured ms/step | error" >"$out/summary.txt"
predict cavity3d_amg 200 cavity-3d "${amg[@]}" --calibrate
predict cavity3d128_amg 60 cavity-3d --set 'mesh.cells=[128,128,128]'
predict tg64_les_amg 40 taylor-green-3d --set 'mesh.cells=[64,64,64]' --set 'physics.les="wale"' \
  --set 'numerics.poisson="pcg"' "${amg[@]}"
predict cavity3d_aip1 40 cavity-3d --set 'numerics.preconditioner="aip1"'
predict channel_auto 60 channel
cat "$out/steps.txt" "$out/summary.txt"
