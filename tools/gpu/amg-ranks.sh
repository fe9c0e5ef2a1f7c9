#!/usr/bin/env bash
# AMG coupled across ranks on GPUs (docs/amg.md, "Several ranks"), within a time budget: PCG iterations
# per step and time per step of cavity-3d (hex 64³ and tet 40³ × 6, 20 steps) with AMG on 1, 2 and 4
# ranks. On a one-GPU machine the ranks share the GPU (MINIAPP_ALLOW_GPU_SHARING=1: iterations and
# correctness, not scaling); with 2 or more GPUs, also cavity-3d at 128³ on 1 and 2 GPUs with the mpi
# and nccl transports. Steps run in order of importance, skipped once the budget is spent (steps.txt).
# Usage: MINIAPP_GPU_BUILD=BUILD [MINIAPP_GPU_BUDGET=340] tools/gpu/amg-ranks.sh OUT_DIR
# BUILD holds miniapp, built by tools/gpu/build.sh.
set -uo pipefail
out=${1:?usage: tools/gpu/amg-ranks.sh OUT_DIR}
build=${MINIAPP_GPU_BUILD:-/tmp/mb}
budget=${MINIAPP_GPU_BUDGET:-340}
source tools/gpu/runtime.sh  # also: bin, gpus, $out/device.txt and an empty $out/steps.txt
cavity() {  # name, ranks, extra options...: cavity-3d with AMG, 20 steps
  local name=$1 ranks=$2
  shift 2
  step "$name" 60 mpi "$ranks" env MINIAPP_ALLOW_GPU_SHARING=1 "$bin" run cavity-3d --backend cuda \
    --set run.max_steps=20 --set 'output.fields=[]' --set 'numerics.preconditioner="amg"' \
    --set "output.directory=\"/tmp/amg_ranks_$name\"" "$@"
}
for ranks in 1 2 4; do
  cavity "hex64_np$ranks" "$ranks" --set 'mesh.cells=[64,64,64]'
  cavity "tet40_np$ranks" "$ranks" --set 'mesh.generator="tet"' --set 'mesh.cells=[40,40,40]'
done
if ((gpus >= 2)); then
  cavity hex128_np1 1 --set 'mesh.cells=[128,128,128]'
  for comm in mpi nccl; do cavity "hex128_np2_$comm" 2 --comm "$comm" --set 'mesh.cells=[128,128,128]'; done
fi
# One line per run: AMG levels, iterations and time per step.
grep -H -e 'AMG:' -e 'Poisson iterations per step' "$out"/*_np*.txt >"$out/summary.txt" 2>&1
