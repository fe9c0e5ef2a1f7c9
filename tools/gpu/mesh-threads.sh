#!/usr/bin/env bash
# On a GPU machine's host (its cores only: the CPU backend): the mesh stage of cavity-3d, with its
# parts, on 1, 2, 4, 8 and all cores, for 10⁷ hex cells (215³) and 10⁷ tets (119³ boxes of 6); each
# run is stopped once the stage has printed (issue 24: a mesh stage parallel over the host's cores).
# Each run's lines go to OUT_DIR/<mesh>_<threads>.txt, all of them to OUT_DIR/summary.txt.
# Usage: MINIAPP_GPU_BUILD=BUILD tools/gpu/mesh-threads.sh OUT_DIR
set -uo pipefail
out=${1:?usage: MINIAPP_GPU_BUILD=BUILD tools/gpu/mesh-threads.sh OUT_DIR}
build=${MINIAPP_GPU_BUILD:-build/gpu}
budget=${MINIAPP_GPU_BUDGET:-500}
source tools/gpu/runtime.sh
git log -1 --format='%H %cI' >"$out/commit.txt" 2>/dev/null
# `mesh_stage NAME THREADS GENERATOR EDGE`: the mesh stage's lines, then the run is stopped.
mesh_stage() {
  local name=$1 threads=$2 generator=$3 edge=$4 log=$out/$1.log
  ((SECONDS + 60 > budget)) && { echo "$name: skipped (budget)" >>"$out/summary.txt"; return; }
  OMP_NUM_THREADS=$threads "$bin" run cavity-3d --backend cpu --set "mesh.generator=\"$generator\"" \
    --set "mesh.cells=[$edge,$edge,$edge]" --set run.max_steps=1 --set 'output.fields=[]' \
    --set "output.directory=\"/tmp/mesh_threads_$name\"" >"$log" 2>&1 &
  local run=$!
  until grep -q '^  host memory peak' "$log"; do
    kill -0 "$run" 2>/dev/null || break
    sleep 0.2
  done
  kill "$run" 2>/dev/null
  wait "$run" 2>/dev/null
  sed -n '/^  mesh  /,/^  host memory peak/p' "$log" >"$out/$name.txt"
  { echo "$name:"; cat "$out/$name.txt"; } >>"$out/summary.txt"
  rm -rf "$log" "/tmp/mesh_threads_$name"
}
: >"$out/summary.txt"
for threads in $(nproc) 8 4 2 1; do
  mesh_stage "hex_1e7_$threads" "$threads" hex 215
  mesh_stage "tet_1e7_$threads" "$threads" tet 119
done
cat "$out/summary.txt"
