#!/usr/bin/env bash
# Taylor-Green at Re 1600 on 128³ without a model at CFL 0.5 (the case's), 0.25 and 0.125: the peak of
# −dE/dt against the 512³ DNS and the budget's shares at the peak (tg_study_table.py), the time-step
# study of the 128³ miss (docs/validation.md, *What the misses say*). On the CPU backend the three runs
# go two at a time, one thread each (about 35 and 70 minutes at CFL 0.25 and 0.125 on the 2-core
# development VM); with BACKEND cuda one at a time (seconds each on one H200).
# Usage: tools/cpu/tg128-timestep.sh MINIAPP OUT_DIR [BACKEND]
set -euo pipefail
miniapp=${1:?usage: tools/cpu/tg128-timestep.sh MINIAPP OUT_DIR [BACKEND]}
out=${2:?usage: tools/cpu/tg128-timestep.sh MINIAPP OUT_DIR [BACKEND]}
backend=${3:-cpu}
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
run() {
  local cfl=$1
  MINIAPP_CASES_DIR="$root/cases" "$miniapp" run taylor-green-3d --backend "$backend" \
    --set 'mesh.cells=[128,128,128]' --set 'physics.les="none"' --set run.end_time=14 --set 'output.fields=[]' \
    --set output.checkpoint_interval=0 --set numerics.cfl="$cfl" --set "output.directory=\"$out/cfl$cfl\"" \
    >"$out/cfl$cfl.log" 2>&1
}
if [[ $backend == cpu ]]; then
  OMP_NUM_THREADS=1 run 0.125 &
  OMP_NUM_THREADS=1 run 0.25 &
  wait
  run 0.5
else
  for cfl in 0.5 0.25 0.125; do run "$cfl"; done
fi
python3 "$root/tools/cpu/tg_study_table.py" "$out" cfl0.5 cfl0.25 cfl0.125
