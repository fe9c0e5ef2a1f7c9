#!/usr/bin/env bash
# AMG coupled across ranks on GPUs (docs/amg.md, "Several ranks"), within a time budget: PCG iterations
# per step and time per step of cavity-3d (hex 64³ and tet 40³ × 6, 20 steps) with AMG on 1, 2 and 4
# ranks. On a one-GPU machine the ranks share the GPU (MINIAPP_ALLOW_GPU_SHARING=1: iterations and
# correctness, not scaling); with 2 or more GPUs, also cavity-3d at 128³ and 192³ on 1 and 2 GPUs with
# the mpi transport, on 2 also with every level but the coarsest split over the GPUs
# (numerics.amg_redundant_rows = 0, the hierarchy before its coarse levels were gathered), and at 128³
# with nccl. Steps run in order of importance, skipped once the budget is spent (steps.txt).
# MINIAPP_AMG_RANKS_PART=gpus runs the runs on 2 GPUs alone.
# Usage: MINIAPP_GPU_BUILD=BUILD [MINIAPP_GPU_BUDGET=340] [MINIAPP_AMG_RANKS_PART=gpus] tools/gpu/amg-ranks.sh OUT_DIR
# BUILD holds miniapp, built by tools/gpu/build.sh.
set -uo pipefail
out=${1:?usage: tools/gpu/amg-ranks.sh OUT_DIR}
build=${MINIAPP_GPU_BUILD:-/tmp/mb}
budget=${MINIAPP_GPU_BUDGET:-340}
part=${MINIAPP_AMG_RANKS_PART:-all}
source tools/gpu/runtime.sh  # also: bin, gpus, $out/device.txt and an empty $out/steps.txt
limit=60  # seconds per run; the 7·10⁶-cell runs' start-up takes longer
cavity() {  # name, ranks, extra options...: cavity-3d with AMG, 20 steps
  local name=$1 ranks=$2
  shift 2
  step "$name" "$limit" mpi "$ranks" env MINIAPP_ALLOW_GPU_SHARING=1 "$bin" run cavity-3d --backend cuda \
    --set run.max_steps=20 --set 'output.fields=[]' --set 'numerics.preconditioner="amg"' \
    --set "output.directory=\"/tmp/amg_ranks_$name\"" "$@"
}
if [[ $part == all ]]; then
  for ranks in 1 2 4; do
    cavity "hex64_np$ranks" "$ranks" --set 'mesh.cells=[64,64,64]'
    cavity "tet40_np$ranks" "$ranks" --set 'mesh.generator="tet"' --set 'mesh.cells=[40,40,40]'
  done
fi
if ((gpus >= 2)); then
  for n in 128 192; do
    ((n > 128)) && limit=150
    cells="mesh.cells=[$n,$n,$n]"
    cavity "hex${n}_np1" 1 --set "$cells"
    cavity "hex${n}_np2_mpi" 2 --comm mpi --set "$cells"
    cavity "hex${n}_np2_mpi_split" 2 --comm mpi --set "$cells" --set numerics.amg_redundant_rows=0
  done
  limit=60
  [[ $part == all ]] && cavity hex128_np2_nccl 2 --comm nccl --set 'mesh.cells=[128,128,128]'
fi
# One line per run: AMG levels, iterations and time per step, host reads (synchronisations) per step.
grep -H -e 'AMG:' -e 'Poisson iterations per step' -e 'host reads' "$out"/*_np*.txt >"$out/summary.txt" 2>&1
