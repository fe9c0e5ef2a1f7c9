#!/usr/bin/env bash
# The final build (memory estimate without length arrays; backend and time-integrator stage lines)
# against 5b4f49b at 10^7 hex, alternated three times, then the start-up sweep.
set -uo pipefail
out=$OUT; build=build/gpu-local; budget=420
source tools/gpu/runtime.sh
export OMP_NUM_THREADS=$(nproc) MINIAPP_CASES_DIR=$PWD/cases
old=.gl/miniapp_head; new=build/gpu-local/miniapp/miniapp
mkdir -p /tmp/sw
cav() { timeout 60 $1 run cavity-3d --backend cuda --set "mesh.generator=\"$2\"" --set "mesh.cells=[$3,$3,$3]" --set run.max_steps=1 \
    --set numerics.poisson_tolerance=0.1 --set 'output.fields=[]' --set output.checkpoint_interval=0 --set output.directory=\"/tmp/ab\"; }
for round in 1 2 3; do
  for which in old new; do
    echo "=== $which hex 215 round $round" >> $out/ab.txt
    cav ${!which} hex 215 2>&1 | grep -E "^  [a-zA-Z]|^    [a-zA-Z]" >> $out/ab.txt
  done
done
MINIAPP_GPU_BUILD=build/gpu-local MINIAPP_GPU_BUDGET=330 tools/gpu/startup.sh /tmp/sw > /dev/null 2>&1
(cd /tmp/sw && tar czf $out/sweep.tgz .)
