#!/usr/bin/env bash
# On a lent H200 machine after verify.sh (build/gpu built): the largest meshes the estimate leaves
# room for, run for 3 steps: cavity-3d on 455³ hex cells and on 265³ × 6 tets, with /usr/bin/time -v.
# Usage: bash docs/results/h200_2026-12-06_shared_structure/largest.sh OUT
set -uo pipefail
out=${1:?usage: largest.sh OUT}
build=build/gpu
budget=580
source tools/gpu/runtime.sh
big() {  # name, generator, n
  step "$1" 280 /usr/bin/time -v "$bin" run cavity-3d --backend cuda --set "mesh.generator=\"$2\"" \
    --set "mesh.cells=[$3,$3,$3]" --set run.max_steps=3 --set 'output.fields=[]' \
    --set output.checkpoint_interval=0 --set "output.directory=\"/tmp/$1\""
  rm -rf "/tmp/$1"
}
big hex455 hex 455
big tet265 tet 265
