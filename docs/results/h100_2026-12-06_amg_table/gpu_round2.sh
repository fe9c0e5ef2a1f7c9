#!/usr/bin/env bash
# Throwaway: the sweep's second round, then one calibration and the shipped channel's predict.
set -uo pipefail
out=${OUT:-/tmp/out}; mkdir -p "$out"; start=$SECONDS
build=build/gpu; budget=400; source tools/gpu/runtime.sh; rm -f "$out/steps.txt"
date -u >> "$out/device.txt"
: > "$out/sweep2.txt"
for m in "hex 46" "tet 26" "hex 100" "tet 55" "hex 144" "tet 80" "hex 215" "tet 119"; do
  set -- $m
  echo "== $1 $2 round 2 $(date -u +%T)" >> "$out/sweep2.txt"
  timeout 60 "$bin" poisson --backend cuda --mesh "$1" --cells "$2,$2,$2" --periodic none \
    --preconditioner aip1,amg --amg-float > /tmp/p.txt 2>&1; echo "rc $?" >> "$out/sweep2.txt"
  grep -E "^(mesh|matrix|preconditioner|aip1|amg) |levels, rows" /tmp/p.txt >> "$out/sweep2.txt"
done
echo "sweep2 done $((SECONDS-start)) s" >> "$out/device.txt"
timeout 240 "$bin" predict cavity-3d --set 'numerics.preconditioner="amg"' --backend cuda --calibrate \
  --calibration "$out/calibration.json" --measure --measure-steps 20 --devices 1 --no-plots --output /tmp/pc > "$out/predict_cal.txt" 2>&1
echo "calibration rc $? $((SECONDS-start)) s" >> "$out/device.txt"
timeout 90 "$bin" predict channel --backend cuda --calibration "$out/calibration.json" --measure \
  --measure-steps 20 --devices 1 --no-plots --output /tmp/pch > "$out/predict_channel.txt" 2>&1
echo "channel rc $? $((SECONDS-start)) s" >> "$out/device.txt"
cat "$out/device.txt"; grep -E "^==|^aip1|^amg" "$out/sweep2.txt"; grep -E "step \(wall|Poisson solve|time step" "$out/predict_channel.txt" | tail -4
