#!/usr/bin/env bash
set -uo pipefail
git apply docs/results/h100_2026-12-06_restriction_probes/row_chunks.patch || exit 1
t0=$(date +%s)
tools/gpu/build.sh build/gpu miniapp || exit 1
echo "build $(( $(date +%s) - t0 )) s"
nvidia-smi --query-gpu=name --format=csv,noheader
m=build/gpu/miniapp/miniapp
run() { # mesh cells variant round
  echo "=== $1 $2 $3 round $4 $(date -u +%H:%M:%S)"
  if [ "$3" = current ]; then env -u MINIAPP_R_VARIANT $m poisson --backend cuda --mesh $1 --cells $2 --periodic none --preconditioner amg --amg-float --level-kernels
  else MINIAPP_R_VARIANT=$3 $m poisson --backend cuda --mesh $1 --cells $2 --periodic none --preconditioner amg --amg-float --level-kernels; fi 2>&1 | grep -E "^amg |copy bandwidth|^level|b_c = R r|all calls"
}
for r in 1 2; do
  for v in current base pipe8 pipe4 chunk16 pipe16; do run hex 215,215,215 $v $r; run tet 119,119,119 $v $r; done
done > $OUT/row_chunks.txt 2>&1
grep -c "b_c" $OUT/row_chunks.txt
