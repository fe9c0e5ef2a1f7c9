#!/usr/bin/env bash
set -uo pipefail
git apply docs/results/h100_2026-12-06_restriction_probes/float_gather.patch || exit 1
t0=$(date +%s)
tools/gpu/build.sh build/gpu miniapp || exit 1
echo "build $(( $(date +%s) - t0 )) s"
nvidia-smi --query-gpu=name --format=csv,noheader
m=build/gpu/miniapp/miniapp
run() { # mesh cells mode round
  local env=""; [ "$3" = float ] && env="PROBE_FLOAT_R=1"
  echo "=== $1 $2 $3 round $4 $(date -u +%H:%M:%S)"
  env $env $m poisson --backend cuda --mesh $1 --cells $2 --periodic none --preconditioner amg --amg-float --level-kernels 2>&1 | grep -E "^amg |copy bandwidth|^level|b_c = R r|all calls"
}
for r in 1 2; do
  run hex 215,215,215 double $r; run hex 215,215,215 float $r
  run tet 119,119,119 double $r; run tet 119,119,119 float $r
done > $OUT/float_gather.txt 2>&1
tail -5 $OUT/float_gather.txt
