#!/usr/bin/env bash
# On a lent one-GPU machine, from the repository root: the float sELL SpMV of R with each slice of 32
# rows shared by K warps (split.patch, a probe chosen at run time by MINIAPP_R_SPLIT=K for matrices of
# at most MINIAPP_R_SPLIT_ROWS rows, 262144 unless set: R₁ and the levels below, not R₀), against the
# kernel as built; `miniapp poisson --level-kernels` on hex 215³ and tet 119³ × 6, two rounds alternated.
# Usage: OUT=folder bash docs/results/h100_2026-12-07_split_restriction/split_run.sh
set -uo pipefail
git apply docs/results/h100_2026-12-07_split_restriction/split.patch || exit 1
t0=$(date +%s)
tools/gpu/build.sh build/gpu miniapp || exit 1
echo "build $(( $(date +%s) - t0 )) s"
nvidia-smi --query-gpu=name --format=csv,noheader
m=build/gpu/miniapp/miniapp
run() { # mesh cells variant round
  echo "=== $1 $2 $3 round $4 $(date -u +%H:%M:%S)"
  case $3 in
    built) env -u MINIAPP_R_SPLIT $m poisson --backend cuda --mesh $1 --cells $2 --periodic none --preconditioner amg --amg-float --level-kernels ;;
    all4) MINIAPP_R_SPLIT=4 MINIAPP_R_SPLIT_ROWS=2000000000 $m poisson --backend cuda --mesh $1 --cells $2 --periodic none --preconditioner amg --amg-float --level-kernels ;;
    *) MINIAPP_R_SPLIT=$3 $m poisson --backend cuda --mesh $1 --cells $2 --periodic none --preconditioner amg --amg-float --level-kernels ;;
  esac 2>&1 | grep -E "^amg |copy bandwidth|^level|b_c = R r|all calls"
}
for r in 1 2; do
  for v in built 2 4 8 all4; do run hex 215,215,215 $v $r; run tet 119,119,119 $v $r; done
done > $OUT/split.txt 2>&1
grep -c "b_c" $OUT/split.txt
git apply -R docs/results/h100_2026-12-07_split_restriction/split.patch
