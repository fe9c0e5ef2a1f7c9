#!/usr/bin/env bash
set -uo pipefail
t0=$(date +%s)
tools/gpu/build.sh build/gpu miniapp || exit 1
echo "build $(( $(date +%s) - t0 )) s"
MINIAPP_GPU_BUILD=build/gpu MINIAPP_GPU_BUDGET=300 tools/gpu/startup.sh $OUT/startup >/dev/null 2>&1
cat $OUT/startup/summary.txt
m=build/gpu/miniapp/miniapp
export OMP_NUM_THREADS=$(nproc)
for r in 1 2 3; do
  echo -n "== cavity128 round $r: "; $m bench step cavity-3d --set 'mesh.cells=[128,128,128]' --backend cuda --warmup 5 --steps 20 2>&1 | grep -E "AMG hierarchy|pressure solver|pressure matrix|time per step" | tr '\n' '|'; echo
  echo -n "== les_tet80 round $r: "; $m bench step taylor-green-3d --set 'physics.les="wale"' --set 'mesh.generator="tet"' --set 'mesh.cells=[80,80,80]' --set 'numerics.poisson="pcg"' --backend cuda --warmup 5 --steps 20 2>&1 | grep -E "AMG hierarchy|pressure solver|pressure matrix|time per step" | tr '\n' '|'; echo
done > $OUT/setup_steps.txt
cat $OUT/setup_steps.txt
