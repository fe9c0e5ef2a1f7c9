#!/usr/bin/env bash
# The huge-page advice after idle and in the step, on the dev VM: the start-up of 10^6 hex cells of
# cavity-3d as built ('thp') and with transparent huge pages disabled for the process ('nothp':
# nothp.c, prctl(PR_SET_THP_DISABLE) then exec), alternated, 6 s idle before each run; then
# `miniapp bench step` of the same mesh per variant, alternated.
# Usage (repository root): gcc -O2 docs/results/cpu_2026-12-07_startup_amd_vm/nothp.c -o /tmp/nothp &&
#   MINIAPP=build/cpu/miniapp/miniapp NOTHP=/tmp/nothp bash docs/results/cpu_2026-12-07_startup_amd_vm/thp_ab.sh
set -u
bin=${MINIAPP:-build/cpu/miniapp/miniapp}
prefix() { [[ $1 == nothp ]] && echo "${NOTHP:-/tmp/nothp}"; }
once() {
  /usr/bin/time -f "wall %e user %U sys %S" $(prefix "$1") "$bin" run cavity-3d --set 'mesh.cells=[100,100,100]' \
    --set run.max_steps=1 --set numerics.poisson_tolerance=0.1 --set 'output.fields=[]' \
    --set output.checkpoint_interval=0 --set 'output.directory="/tmp/startup"' 2>&1 | grep -E "start-up|wall" | paste -sd' '
}
date -u; lscpu | grep "Model name"
echo "# start-up, 6 s idle before each run"
for r in 1 2 3 4 5; do for v in thp nothp; do sleep 6; echo "$r $v $(once $v)"; done; done
echo "# bench step"
for r in 1 2 3; do for v in thp nothp; do
  echo "$r $v $($(prefix $v) "$bin" bench step cavity-3d --set 'mesh.cells=[100,100,100]' --steps 10 --warmup 3 2>&1 |
    grep -E "time per step|copy bandwidth" | paste -sd' ')"; done; done
date -u
