#!/usr/bin/env bash
# Dev VM, one thread: AMG's float levels with their rows sorted (AFTER: the tree of 38e1768 with
# sorted_rows.patch applied, built as build/cpu is) against that tree as it is (BEFORE), `miniapp
# poisson --level-kernels` on 10⁶ hex and tets, each build in turn, two rounds.
# Usage: BEFORE=miniapp AFTER=miniapp bash ab.sh OUT
set -uo pipefail
out=${1:?usage: BEFORE=miniapp AFTER=miniapp ab.sh OUT}
mkdir -p "$out"
export OMP_NUM_THREADS=1
for round in 1 2; do
  for mesh in "hex 100" "tet 56"; do
    set -- $mesh
    for build in before after; do
      bin=$([[ $build == before ]] && echo "$BEFORE" || echo "$AFTER")
      "$bin" poisson --backend cpu --mesh "$1" --cells "$2,$2,$2" --periodic none --preconditioner amg --amg-float \
        --level-kernels >"$out/${build}_$1_$round.txt" 2>&1
      echo "$(date -u +%H:%M:%S) $build $1 round $round: rc $?" >>"$out/runs.txt"
    done
  done
done
