#!/usr/bin/env bash
# HEAD (5b4f49b), b = backend during the mesh stage + estimate without length arrays, c = b + M Gamma in mesh order
# (b and c instrumented with TMP lines), alternated: hex 10^6, hex 10^7, tet 10^7, two rounds.
set -uo pipefail
out=$OUT; build=build/gpu-local; budget=420
source tools/gpu/runtime.sh
export OMP_NUM_THREADS=$(nproc) MINIAPP_CASES_DIR=$PWD/cases
head=.gl/miniapp_head; b=.gl/miniapp_b; c=.gl/miniapp_c
nvidia-smi --query-gpu=name --format=csv,noheader > $out/log.txt
cav() { timeout 60 $1 run cavity-3d --backend cuda --set "mesh.generator=\"$2\"" --set "mesh.cells=[$3,$3,$3]" --set run.max_steps=1 \
    --set numerics.poisson_tolerance=0.1 --set 'output.fields=[]' --set output.checkpoint_interval=0 --set output.directory=\"/tmp/ab\"; }
for round in 1 2; do
for mesh in "hex 100" "hex 215" "tet 119"; do
  for which in head b c; do
    echo "=== $which $mesh round $round" >> $out/ab.txt
    cav ${!which} $mesh 2>&1 | grep -E "^  [a-zA-Z]|^    [a-zA-Z]|TMP" >> $out/ab.txt
    echo "$which $mesh rc $? at $SECONDS s" >> $out/log.txt
  done
done
done
