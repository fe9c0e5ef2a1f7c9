#!/usr/bin/env bash
# On a lent one-GPU machine, from the repository root: one calibration (cavity-3d 32³ with AMG), then
# `predict --measure` of the cost model's H100 cases that predict_more.sh
# leaves out: cavity-3d 42³ and 48³, Taylor–Green 128³ on the FFT path, the 96 × 96 × 64 channel.
# Usage: bash docs/results/h100_2026-12-07_current_tree/predict_rest.sh OUT
set -uo pipefail
out=${1:?usage: predict_rest.sh OUT}
build=build/gpu
budget=400
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
predict predict_cav42 40 cavity-3d --set 'mesh.cells=[42,42,42]'
predict predict_cav48 40 cavity-3d --set 'mesh.cells=[48,48,48]'
predict predict_tg128_fft 90 taylor-green-3d --set 'numerics.poisson="fft"' --set 'mesh.cells=[128,128,128]'
predict predict_channel96 90 channel --set 'mesh.cells=[96,96,64]'
for f in "$out"/predict_*.txt; do
  echo "== $(basename "$f" .txt)"
  grep -E "AMG:|^\| 2.2 Poisson solve \||^\| 6 time step|step \(wall" "$f"
done >"$out/summary.txt"
mkdir -p "$out/raw" && mv "$out"/predict_*.txt "$out/build.txt" "$out/raw/" && tar czf "$out/raw.tgz" -C "$out" raw && rm -rf "$out/raw"
