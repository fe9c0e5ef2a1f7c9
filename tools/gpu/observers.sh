#!/usr/bin/env bash
# On a GPU machine: the observers' share of the wall time ("observers" in the run summary) on the
# 3D Taylor-Green vortex at 128³ (FFT path) and cavity-3d at 128³ (PCG), with the diagnostics every
# step, every 10 steps, and every step with [statistics] averages and two probes. Summaries and
# diagnostics go to OUT_DIR. About 5 minutes after the build.
# Usage: tools/gpu/observers.sh OUT_DIR
set -uo pipefail
out=${1:?usage: tools/gpu/observers.sh OUT_DIR}
mkdir -p "$out"
build=${MINIAPP_GPU_BUILD:-build/gpu}
tools/gpu/build.sh "$build" miniapp 2>&1 | tail -5 >"$out/build.txt"
export LD_LIBRARY_PATH=/tmp/miniapp-deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv >"$out/device.txt"
git log -1 --format='%H %cI' >"$out/commit.txt"
bin=$build/miniapp/miniapp
measure() {  # label, case, steps, extra overrides...
  local label=$1 name=$2 steps=$3; shift 3
  timeout 150 "$bin" run "$name" --backend cuda --quiet --set "run.max_steps=$steps" --set 'output.fields=[]' \
    --set "output.directory=/tmp/obs_$label" "$@" >"$out/$label.txt" 2>&1
  cp "/tmp/obs_$label/diagnostics.csv" "$out/$label.csv" 2>/dev/null
  echo "$label: $(grep -A1 '^summary' "$out/$label.txt" | tr -s ' ' | tr '\n' ' ')" >>"$out/summary.txt"
}
for c in "tg128 taylor-green-3d 300 --set mesh.cells=[128,128,128]" \
         "cavity128 cavity-3d 100 --set mesh.cells=[128,128,128]"; do
  set -- $c
  label=$1; shift
  measure "${label}_every_step" "$@"
  measure "${label}_every_10" "$@" --set output.diagnostics_interval=10
  measure "${label}_statistics" "$@" --set statistics.start_time=0 --set 'probes.a.position=[0.5,0.5,0.5]' \
    --set 'probes.b.position=[0.25,0.75,0.5]'
done
cat "$out/summary.txt"
