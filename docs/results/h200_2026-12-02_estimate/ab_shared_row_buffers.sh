#!/usr/bin/env bash
# f91f9ee against one set of csr_from_rows buffers shared by the flow operators' builders, alternated:
# hex 10^7 three times, tet 10^7 twice, hex 3*10^7 once.
set -uo pipefail
out=$OUT; build=build/gpu-local; budget=420
source tools/gpu/runtime.sh
export OMP_NUM_THREADS=$(nproc) MINIAPP_CASES_DIR=$PWD/cases
old=.gl/miniapp_f91; new=build/gpu-local/miniapp/miniapp
cav() { timeout 90 $1 run cavity-3d --backend cuda --set "mesh.generator=\"$2\"" --set "mesh.cells=[$3,$3,$3]" --set run.max_steps=1 \
    --set numerics.poisson_tolerance=0.1 --set 'output.fields=[]' --set output.checkpoint_interval=0 --set output.directory=\"/tmp/ab\"; }
for m in "hex 215 1" "tet 119 1" "hex 215 2" "tet 119 2" "hex 215 3" "hex 311 1"; do
  set -- $m
  for which in old new; do
    echo "=== $which $1 $2 round $3" >> $out/ab.txt
    cav ${!which} $1 $2 2>&1 | grep -E "^  [a-zA-Z]|^    [a-zA-Z]" >> $out/ab.txt
  done
  echo "$m at $SECONDS s" >> $out/log.txt
  ((SECONDS > 300)) && break
done
