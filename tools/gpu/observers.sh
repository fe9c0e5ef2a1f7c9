#!/usr/bin/env bash
# On a GPU machine: the observers' share of the time step on the 3D Taylor-Green vortex at 128³ (FFT
# path), 300 steps, with the diagnostics row every step (default), every 10 steps, and every step with
# [statistics] averages sampled every step and two probes. Keeps each run's summary block (the
# observers split into diagnostics rows and statistics samples, beside output files and checkpoints)
# in OUT_DIR/summary.txt, logs and diagnostics beside it. About 3 minutes after the build.
# Usage: tools/gpu/observers.sh OUT_DIR   (MINIAPP_GPU_BUILD: the build folder, default build/gpu)
set -uo pipefail
out=${1:?usage: tools/gpu/observers.sh OUT_DIR}
mkdir -p "$out"
build=${MINIAPP_GPU_BUILD:-build/gpu}
tools/gpu/build.sh "$build" miniapp 2>&1 | tail -5 >"$out/build.txt"
export LD_LIBRARY_PATH=/tmp/miniapp-deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv >"$out/device.txt"
git log -1 --format='%H %cI' >"$out/commit.txt"
bin=$build/miniapp/miniapp
measure() {  # label, extra overrides...
  local label=$1; shift
  timeout 120 "$bin" run taylor-green-3d --backend cuda --quiet --set 'mesh.cells=[128,128,128]' \
    --set run.max_steps=300 --set 'output.fields=[]' --set "output.directory=/tmp/obs_$label" "$@" \
    >"$out/$label.txt" 2>&1
  echo "rc $? $label" >>"$out/summary.txt"
  cp "/tmp/obs_$label/diagnostics.csv" "$out/$label.csv" 2>/dev/null
  sed -n '/^summary/,/kernels per step/p' "$out/$label.txt" >>"$out/summary.txt"
}
measure tg128_every_step
measure tg128_every_10 --set output.diagnostics_interval=10
measure tg128_statistics --set statistics.start_time=0 --set 'probes.a.position=[0.5,0.5,0.5]' \
  --set 'probes.b.position=[0.25,0.75,0.5]'
cat "$out/summary.txt"
