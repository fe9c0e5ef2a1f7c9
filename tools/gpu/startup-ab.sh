#!/usr/bin/env bash
# On a GPU machine (one GPU, all host cores for the set-up): the start-up of several builds alternated
# on one machine, since machines of one kind differ by more than most changes. For each mesh given as
# "GENERATOR EDGE" (cavity-3d on an EDGE³ box; tet: 6 cells per box cell), in the order given (a mesh
# may repeat), each build runs once, in the order listed; MINIAPP_AB_ROUNDS (default 1) repeats the
# whole list. One step, Poisson tolerance loosened, no fields or checkpoints: only the set-up counts.
# Each run's stage and part lines go to OUT_DIR/ab.txt under "=== NAME GENERATOR EDGE round R", its
# exit status to OUT_DIR/steps.txt; no run starts past MINIAPP_GPU_BUDGET seconds (default 340).
# MINIAPP_CASES_DIR points binaries built elsewhere at this tree's cases.
# Usage: MINIAPP_AB_BUILDS="NAME:BINARY NAME:BINARY ..." [MINIAPP_AB_ROUNDS=N] [MINIAPP_GPU_BUDGET=S]
#        tools/gpu/startup-ab.sh OUT_DIR "hex 215" ["tet 119" ...]
set -uo pipefail
out=${1:?usage: MINIAPP_AB_BUILDS="NAME:BINARY ..." tools/gpu/startup-ab.sh OUT_DIR "GENERATOR EDGE" ...}
shift
(($# > 0)) || { echo "startup-ab.sh: no mesh given (e.g. \"hex 215\")" >&2; exit 2; }
read -ra builds <<<"${MINIAPP_AB_BUILDS:?MINIAPP_AB_BUILDS: NAME:BINARY pairs, space-separated}"
build=$(dirname "$(dirname "${builds[0]#*:}")")  # runtime.sh's CUPTI lookup; the binaries are given
budget=${MINIAPP_GPU_BUDGET:-340}
source tools/gpu/runtime.sh
export OMP_NUM_THREADS=$(nproc) MINIAPP_CASES_DIR=${MINIAPP_CASES_DIR:-$PWD/cases}
for ((round = 1; round <= ${MINIAPP_AB_ROUNDS:-1}; ++round)); do
  for mesh in "$@"; do
    read -r generator edge <<<"$mesh"
    for named in "${builds[@]}"; do
      name=${named%%:*}
      if ((SECONDS > budget)); then echo "$name $mesh round $round: skipped (budget)" >>"$out/steps.txt"; continue; fi
      start=$SECONDS
      echo "=== $name $generator $edge round $round" >>"$out/ab.txt"
      timeout 120 "${named#*:}" run cavity-3d --backend cuda --set "mesh.generator=\"$generator\"" \
        --set "mesh.cells=[$edge,$edge,$edge]" --set run.max_steps=1 --set numerics.poisson_tolerance=0.1 \
        --set 'output.fields=[]' --set output.checkpoint_interval=0 --set 'output.directory="/tmp/startup_ab"' \
        >"$out/run.txt" 2>&1
      echo "$name $mesh round $round: rc $? in $((SECONDS - start)) s" >>"$out/steps.txt"
      grep -E '^  [a-zA-Z]|^    [a-zA-Z]' "$out/run.txt" >>"$out/ab.txt"
    done
  done
done
rm -rf "$out/run.txt" /tmp/startup_ab
