#!/usr/bin/env bash
# On a GPU machine: the observers' share of the time step, 300 steps per run, on the 3D Taylor-Green
# vortex at 128³ (FFT path), cavity-3d at 128³ (AMG) and the channel's GPU variant (96×64×64, WALE):
# each with the default output (a diagnostics row every step with the energy budget, enstrophy and
# max_div every output.enstrophy_divergence_interval steps), then with [statistics] sampled at its
# default interval from t = 0 (and two probes on Taylor-Green); on Taylor-Green also with everything
# every step (enstrophy, max_div and samples): what the intervals save. Keeps each run's summary
# block (observers split into diagnostics rows and statistics samples, beside output files and
# checkpoints) in OUT_DIR/summary.txt, logs and diagnostics beside it. About 3 minutes after the build
# (each run at most 80 s).
# Usage: tools/gpu/observers.sh OUT_DIR   (MINIAPP_GPU_BUILD: the build folder, default build/gpu;
# MINIAPP_OBSERVERS_ONLY=tg128: only tg128_default and tg128_statistics, the pair of the 5 % target)
set -uo pipefail
out=${1:?usage: tools/gpu/observers.sh OUT_DIR}
mkdir -p "$out"
build=${MINIAPP_GPU_BUILD:-build/gpu}
tools/gpu/build.sh "$build" miniapp 2>&1 | tail -5 >"$out/build.txt"
export LD_LIBRARY_PATH=/tmp/miniapp-deps/usr/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv >"$out/device.txt"
git log -1 --format='%H %cI' >"$out/commit.txt"
bin=$build/miniapp/miniapp
measure() {  # label, case, extra overrides...
  local label=$1 case=$2; shift 2
  timeout 80 "$bin" run "$case" --backend cuda --quiet --set run.max_steps=300 --set 'output.fields=[]' \
    --set "output.directory=/tmp/obs_$label" "$@" >"$out/$label.txt" 2>&1
  echo "rc $? $label" >>"$out/summary.txt"
  cp "/tmp/obs_$label/diagnostics.csv" "$out/$label.csv" 2>/dev/null
  sed -n '/^summary/,/kernels per step/p' "$out/$label.txt" >>"$out/summary.txt"
}
tg=(--set 'mesh.cells=[128,128,128]')
stats=(--set statistics.start_time=0)
measure tg128_default taylor-green-3d "${tg[@]}"
measure tg128_statistics taylor-green-3d "${tg[@]}" "${stats[@]}" --set 'probes.a.position=[0.5,0.5,0.5]' \
  --set 'probes.b.position=[0.25,0.75,0.5]'
if [ "${MINIAPP_OBSERVERS_ONLY:-}" = tg128 ]; then
  cat "$out/summary.txt"
  exit 0
fi
measure tg128_all_every_step taylor-green-3d "${tg[@]}" "${stats[@]}" --set statistics.sample_interval=1 \
  --set output.enstrophy_divergence_interval=1
measure cavity128_default cavity-3d --set 'mesh.cells=[128,128,128]'
measure cavity128_statistics cavity-3d --set 'mesh.cells=[128,128,128]' "${stats[@]}"
measure channel_gpu_default channel --set 'mesh.cells=[96,64,64]'
measure channel_gpu_statistics channel --set 'mesh.cells=[96,64,64]' "${stats[@]}"
cat "$out/summary.txt"
