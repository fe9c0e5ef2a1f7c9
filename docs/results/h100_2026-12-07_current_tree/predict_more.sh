#!/usr/bin/env bash
# On a lent one-GPU machine, from the repository root: one calibration (cavity-3d 32³ with AMG), then
# `predict --measure` of the cases in cost-model.md's H100 table: eight of them, or with `rest` the
# other four (cavity-3d 42³ and 48³, Taylor–Green 128³ on the FFT path, the 96 × 96 × 64 channel).
# Usage: bash docs/results/h100_2026-12-07_current_tree/predict_more.sh OUT [rest]
set -uo pipefail
out=${1:?usage: predict_more.sh OUT [rest]}
cases=${2:-eight}
build=build/gpu
budget=380
start=$SECONDS
mkdir -p "$out"
tools/gpu/build.sh "$build" miniapp >"$out/build.txt" 2>&1
echo "build: rc $? in $((SECONDS - start)) s" >>"$out/build.txt"
source tools/gpu/runtime.sh
date -u >>"$out/device.txt"
predict() {  # name, limit, case options...
  local name=$1 limit=$2
  shift 2
  step "$name" "$limit" "$bin" predict "$@" --backend cuda --calibration "$out/calibration.json" --measure \
    --measure-steps 20 --devices 1 --no-plots --output "/tmp/$name"
}
predict predict_cal 120 cavity-3d --set 'numerics.preconditioner="amg"' --calibrate
if [[ $cases == rest ]]; then
  predict predict_cav42 40 cavity-3d --set 'mesh.cells=[42,42,42]'
  predict predict_cav48 40 cavity-3d --set 'mesh.cells=[48,48,48]'
  predict predict_tg128_fft 90 taylor-green-3d --set 'numerics.poisson="fft"' --set 'mesh.cells=[128,128,128]'
  predict predict_channel96 90 channel --set 'mesh.cells=[96,96,64]'
else
  predict predict_channel_unstretched 40 channel --set 'mesh.stretch=[0.0,0.0,0.0]'
  predict predict_channel 40 channel
  predict predict_cavity 40 cavity
  predict predict_tg64_pcg 40 taylor-green-3d --set 'numerics.poisson="pcg"' --set 'physics.les="wale"' --set 'mesh.cells=[64,64,64]'
  predict predict_tg64_fft 40 taylor-green-3d --set 'numerics.poisson="fft"' --set 'mesh.cells=[64,64,64]'
  predict predict_cav32_aip 40 cavity-3d --set 'numerics.preconditioner="aip1"'
  predict predict_cav128 90 cavity-3d --set 'mesh.cells=[128,128,128]'
fi
for f in "$out"/predict_*.txt; do
  echo "== $(basename "$f" .txt)"
  grep -E "AMG:|^\| 2.2 Poisson solve \||^\| 6 time step|step \(wall" "$f"
done >"$out/summary.txt"
mkdir -p "$out/raw" && mv "$out"/predict_*.txt "$out/build.txt" "$out/raw/" && tar czf "$out/raw.tgz" -C "$out" raw && rm -rf "$out/raw"
