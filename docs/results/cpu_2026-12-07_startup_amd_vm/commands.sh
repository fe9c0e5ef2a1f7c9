#!/usr/bin/env bash
# Start-up of 10^6 hex cells of cavity-3d on the CPU backend (2 threads of the dev VM): six runs back
# to back, then six with 6 s idle before each; each run's start-up line and /usr/bin/time's figures.
# Usage (repository root): MINIAPP=build/cpu/miniapp/miniapp bash docs/results/cpu_2026-12-07_startup_amd_vm/commands.sh
set -u
bin=${MINIAPP:-build/cpu/miniapp/miniapp}
once() {
  /usr/bin/time -f "wall %e s, user %U s, system %S s" "$bin" run cavity-3d --set 'mesh.cells=[100,100,100]' \
    --set run.max_steps=1 --set numerics.poisson_tolerance=0.1 --set 'output.fields=[]' \
    --set output.checkpoint_interval=0 --set 'output.directory="/tmp/startup"' 2>&1 | grep -E "start-up|wall" | paste -sd' '
}
lscpu | grep -E "Model name|L3"; date -u
echo "# back to back"; for i in 1 2 3 4 5 6; do once; done
echo "# 6 s idle before each"; for i in 1 2 3 4 5 6; do sleep 6; once; done
date -u
