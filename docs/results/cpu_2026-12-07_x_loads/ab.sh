#!/usr/bin/env bash
# The CPU sELL kernels' AVX2 loads of x: vgatherdpd as built (BASE) against four scalar loads (NEW),
# alternated: SpMV of the Laplacian and the convection operator (bench kernels), PCG solves with
# Jacobi, AIP-1 and AMG (float and double hierarchy), and cavity-3d's step.
# Usage: ab.sh BASE NEW ROUNDS THREADS > ab.txt
set -uo pipefail
base=$1 new=$2 rounds=${3:-3}
export OMP_NUM_THREADS=${4:-1}
date -u; lscpu | grep -E "Model name|^CPU\(s\)|L2|L3"; echo "OMP_NUM_THREADS=$OMP_NUM_THREADS"
for round in $(seq "$rounds"); do
  for b in base new; do
    bin=${!b}
    echo "== round $round, $b ($bin)"
    "$bin" bench kernels --backend cpu --mesh-sizes 3e4,2.6e5,2e6 --meshes hex,tet --matrices laplacian 2>&1 |
      grep -E "copy bandwidth|^(spmv|sell)" 
    for pc in jacobi aip1; do
      "$bin" poisson --backend cpu --mesh hex --cells 100,100,100 --periodic none --preconditioner $pc 2>&1 |
        grep -E "^($pc|spmv|total) " | sed "s/^/poisson hex 100^3 $pc: /"
    done
    for m in "hex --cells 96,96,96" "tet --cells 40,40,40" "hex --cells 48,48,48"; do
      for f in --amg-float ""; do
        "$bin" poisson --backend cpu --mesh $m --periodic none --preconditioner amg $f 2>&1 |
          grep -E "^(amg|spmv|total) " | sed "s/^/poisson ${m% --*} ${m#*cells } amg $f: /"
      done
    done
    "$bin" bench step cavity-3d --set 'mesh.cells=[64,64,64]' 2>&1 | grep -E "^time per step" | sed "s/^/cavity-3d 64^3: /"
  done
done
date -u
