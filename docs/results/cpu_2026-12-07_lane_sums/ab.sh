#!/usr/bin/env bash
# The CPU backend's reductions as built (BASE) against lane sums (NEW), alternated, one thread per
# rank: the DOT and AXPY kernels, one-rank PCG solves with Jacobi and AMG, and on two ranks a
# Jacobi-PCG iteration and cavity-3d's step. Usage: ab.sh BASE NEW ROUNDS > ab.txt
set -uo pipefail
base=$1 new=$2 rounds=${3:-3}
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
date -u; lscpu | grep -E "Model name|^CPU\(s\)"
for round in $(seq "$rounds"); do
  for b in base new; do
    bin=${!b}
    echo "== round $round, $b ($bin)"
    "$bin" bench kernels --backend cpu --mesh-sizes 2.6e5,1e6 --meshes hex --matrices laplacian 2>&1 |
      grep -E "copy bandwidth|^(axpy|dot) "
    for pc in jacobi aip1; do
      "$bin" poisson --backend cpu --mesh hex --cells 100,100,100 --periodic none --preconditioner $pc 2>&1 |
        grep -E "^($pc|spmv|axpy|dot|total) " | sed "s/^/poisson 100^3 $pc: /"
    done
    "$bin" poisson --backend cpu --mesh hex --cells 96,96,96 --periodic none --preconditioner amg --amg-float 2>&1 |
      grep -E "^(amg|spmv|axpy|dot|total) " | sed "s/^/poisson 96^3 amg: /"
    mpirun --oversubscribe -np 2 "$bin" bench ranks --backend cpu --cells-per-rank 2.6e5,1e6 --repeat 30 2>&1 |
      grep -E "^ +[0-9]+ +[0-9]+" | sed "s/^/2 ranks, slab: /"
    mpirun --oversubscribe -np 2 "$bin" bench ranks --backend cpu --cells-per-rank 1e4 --repeat 5 --steps 10 \
      cavity-3d --set 'mesh.cells=[64,64,64]' 2>&1 | grep "time step" | sed "s/^/2 ranks, cavity-3d 64^3: /"
  done
done
date -u
