#!/usr/bin/env bash
# The generator's tetrahedra mirrored (MIRRORED, this tree's build) against Kuhn's split (KUHN, a build
# of the same tree with docs/results/h100_2026-12-07_mirrored_tets/kuhn.patch reverted) on the CPU
# backend, 2 threads, alternated twice: the kernel benchmark on 10⁷ tets, and the LES step (Taylor–Green
# with WALE, 3D PCG) on 40³ × 6 tets with AIP-1 and with AMG.
# Usage: MIRRORED=build/cpu/miniapp/miniapp KUHN=/tmp/kuhn/build/miniapp/miniapp bash commands.sh OUT
set -euo pipefail
out=${1:?usage: commands.sh OUT}
mkdir -p "$out"
export OMP_NUM_THREADS=2
declare -A binary=([mirrored]=${MIRRORED:?} [kuhn]=${KUHN:?})
for round in 1 2; do
  for split in mirrored kuhn; do
    "${binary[$split]}" bench kernels --backend cpu --repeat 20 --meshes tet --mesh-sizes 1e7 \
      >"$out/kernels_${split}_$round.txt" 2>&1
    for p in aip1 amg; do
      "${binary[$split]}" bench step taylor-green-3d --backend cpu --set 'physics.les="wale"' \
        --set 'mesh.generator="tet"' --set 'mesh.cells=[40,40,40]' --set 'numerics.poisson="pcg"' \
        --set "numerics.preconditioner=\"$p\"" --warmup 3 --steps 5 >"$out/les_step_${split}_${p}_$round.txt" 2>&1
    done
  done
done
