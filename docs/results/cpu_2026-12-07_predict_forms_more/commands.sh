#!/bin/bash
# The dev VM's other one-rank predict cases with the SpMVs priced by form: per round the script of
# cpu_2026-11-23_predict_units (the cavity, cavity-3d as shipped, Taylor-Green 24³ with WALE on the
# FFT path and on PCG) and that of cpu_2026-12-05_fft_widths (the channel three ways, Taylor-Green
# 24³ on the FFT path), each with its own calibration. Run from an empty folder:
#   MINIAPP=build/cpu/miniapp/miniapp bash commands.sh [ROUNDS]
results=$(cd "$(dirname "$0")/.." && pwd)
export MINIAPP=$(realpath "${MINIAPP:-build/cpu/miniapp/miniapp}")
for r in $(seq "${1:-3}"); do
  echo "round $r units $(date -u +%T) $(cut -d' ' -f1-3 /proc/loadavg)" >> times.txt
  mkdir -p "units_r$r" && (cd "units_r$r" && bash "$results/cpu_2026-11-23_predict_units/commands.sh")
  echo "round $r fft $(date -u +%T) $(cut -d' ' -f1-3 /proc/loadavg)" >> times.txt
  mkdir -p "fft_r$r" && (cd "fft_r$r" && bash "$results/cpu_2026-12-05_fft_widths/commands.sh")
done
echo "done $(date -u +%T) $(cut -d' ' -f1-3 /proc/loadavg)" >> times.txt
