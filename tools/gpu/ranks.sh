#!/usr/bin/env bash
# One call on a lent machine with 2 or 4 GPUs, within a time budget: the multi-rank tests on GPUs, the
# three halo transports on one case, and `miniapp bench ranks` on 1, 2 (and 4) GPUs (overlap of SpMV
# and halo exchange on slab Laplacians of 1, 4 and 16 million cells per GPU; weak scaling of the LES
# time step at 2 million cells per GPU; strong scaling at 4 (2 GPUs) or 8 (4 GPUs) million cells).
# Steps run in order of importance and are skipped once the budget is spent (steps.txt says so).
# Usage: MINIAPP_GPU_BUILD=BUILD [MINIAPP_GPU_BUDGET=560] tools/gpu/ranks.sh OUT_DIR
set -uo pipefail
out=${1:?usage: tools/gpu/ranks.sh OUT_DIR}
build=${MINIAPP_GPU_BUILD:-/tmp/mb}
budget=${MINIAPP_GPU_BUDGET:-560}
source tools/gpu/runtime.sh  # also: bin, gpus, $out/device.txt and an empty $out/steps.txt
tg() {  # the LES Taylor-Green case on an N³ hex box
  echo taylor-green-3d --set "mesh.cells=[$1,$1,$1]" --set 'physics.les="wale"' --set 'numerics.poisson="pcg"'
}

step case_test_np2 60 mpi 2 "$build/tests/parallel/parallel_case_test"
((gpus >= 4)) && step case_test_np4 60 mpi 4 "$build/tests/parallel/parallel_case_test"
for comm in mpi mpi-cuda-aware nccl; do
  step "transport_$comm" 40 mpi "$gpus" "$bin" run cavity-3d --quiet --comm "$comm" --set 'mesh.cells=[32,32,32]' \
    --set run.max_steps=20 --set 'output.fields=[]' --set "output.directory=\"/tmp/transport_$comm\""
  cp "/tmp/transport_$comm/diagnostics.csv" "$out/transport_$comm.csv" 2>/dev/null
done
step transport_single 40 "$bin" run cavity-3d --quiet --set 'mesh.cells=[32,32,32]' --set run.max_steps=20 \
  --set 'output.fields=[]' --set 'output.directory="/tmp/transport_single"'
cp /tmp/transport_single/diagnostics.csv "$out/transport_single.csv" 2>/dev/null

slabs=(--cells-per-rank 1e6,4e6,16e6 --repeat 30 --steps 10)
# Weak scaling at 2·10⁶ cells per GPU (126³, 159³, 200³), with the slab overlap benchmark.
if ((gpus >= 4)); then top=4 edge=200; else top=2 edge=159; fi
# shellcheck disable=SC2046
step ranks_np1_mpi 90 mpi 1 "$bin" bench ranks $(tg 126) "${slabs[@]}" --json "$out/ranks_np1_mpi.json"
# shellcheck disable=SC2046
step ranks_np2_mpi 100 mpi 2 "$bin" bench ranks $(tg 159) "${slabs[@]}" --json "$out/ranks_np2_mpi.json"
# shellcheck disable=SC2046
((gpus >= 4)) && step ranks_np4_mpi 120 mpi 4 "$bin" bench ranks $(tg 200) "${slabs[@]}" --json "$out/ranks_np4_mpi.json"
# shellcheck disable=SC2046
step "ranks_np${top}_nccl" 120 mpi "$top" "$bin" bench ranks $(tg "$edge") "${slabs[@]}" --comm nccl \
  --json "$out/ranks_np${top}_nccl.json"
step "ranks_np${top}_cuda_aware" 40 mpi "$top" "$bin" bench ranks "${slabs[@]}" --comm mpi-cuda-aware \
  --json "$out/ranks_np${top}_cuda_aware.json"
# Strong scaling at the top weak size (edge³ cells): `top` GPUs above; fewer here.
for np in 2 1; do
  ((np >= top)) && continue
  # shellcheck disable=SC2046
  step "strong_np$np" 150 mpi "$np" "$bin" bench ranks $(tg "$edge") --cells-per-rank 1e5 --repeat 5 --steps 10 \
    --json "$out/strong_np$np.json"
done
cat "$out/steps.txt"
