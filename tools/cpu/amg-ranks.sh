#!/usr/bin/env bash
# PCG iterations per step with AMG on 1, 2 and 4 CPU ranks (the hierarchy coupled across ranks): the
# figures of docs/amg.md, "Several ranks". Each mesh runs `miniapp run CASE` for a few steps with
# numerics.preconditioner = "amg" under mpirun (oversubscribed: iterations, not times, are the figures).
# Usage: tools/cpu/amg-ranks.sh BUILD [CASE:GENERATOR:N ...]   (default: the meshes of docs/amg.md)
# MINIAPP_BACKEND=cuda runs the ranks on the GPU (several ranks on one GPU need
# MINIAPP_ALLOW_GPU_SHARING=1; times are then not the figures either).
# Prints one line per mesh and rank count: case generator cells ranks levels iterations-per-step.
set -euo pipefail
bin=${1:?usage: tools/cpu/amg-ranks.sh BUILD [CASE:GENERATOR:N ...]}/miniapp/miniapp
shift
meshes=("$@")
((${#meshes[@]})) || meshes=(cavity-3d:tet:6 cavity-3d:tet:12 cavity-3d:hex:24 cavity-3d:hex:32 channel:hex:24)
backend=${MINIAPP_BACKEND:-cpu}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
printf '%-10s %-4s %7s %5s %-28s %s\n' case mesh N ranks 'AMG rows per level' 'iterations/step'
for m in "${meshes[@]}"; do
  IFS=: read -r name generator n <<<"$m"
  for ranks in 1 2 4; do
    text=$(mpirun -np "$ranks" --oversubscribe "$bin" run "$name" --backend "$backend" \
      --set "mesh.generator=\"$generator\"" \
      --set "mesh.cells=[$n,$n,$n]" --set run.max_steps=5 --set 'numerics.poisson="pcg"' \
      --set 'numerics.preconditioner="amg"' --set "output.directory=\"$out/$name-$ranks\"" 2>&1)
    levels=$(sed -n 's/.*AMG: [0-9]* levels, rows \([0-9 ]*\);.*/\1/p' <<<"$text")
    it=$(sed -n 's/.* \([0-9.]*\) Poisson iterations per step.*/\1/p' <<<"$text")
    printf '%-10s %-4s %7s %5s %-28s %s\n' "$name" "$generator" "$n" "$ranks" "$levels" "$it"
  done
done
