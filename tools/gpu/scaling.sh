#!/usr/bin/env bash
# Calls on a lent machine with 4 GPUs (2 work too), within a time budget, for the multi-GPU
# benchmarks of docs/performance.md. The LES Taylor–Green case runs with mesh.decomposition =
# "z-layers" (each rank generates its own slab: no global mesh, no METIS), so sizes reach 10⁸ cells.
#   part 1: whole cases on 4 GPUs against one (parallel_case_test), the halo transports on one case,
#           and `miniapp bench ranks` on 1, 2, 4 GPUs: overlap of the halo update with the SpMV (slab
#           Laplacians of 1, 4, 16·10⁶ cells per GPU) and the weak scaling of the step at 2·10⁶ cells
#           per GPU, with NCCL and MPI;
#   part 2: the step at 8·10⁶ cells per GPU on 1, 2, 4 GPUs (weak), 16 and 64·10⁶ cells on 1, 2, 4
#           (strong), and the start-up of 10⁸ cells on 4 GPUs.
# Steps run in order of importance and are skipped once the budget is spent (steps.txt says so).
# Usage: MINIAPP_GPU_BUILD=BUILD [MINIAPP_GPU_BUDGET=560] tools/gpu/scaling.sh 1|2 OUT_DIR
set -uo pipefail
part=${1:?usage: tools/gpu/scaling.sh 1|2 OUT_DIR}
out=${2:?usage: tools/gpu/scaling.sh 1|2 OUT_DIR}
build=${MINIAPP_GPU_BUILD:-/tmp/mb}
budget=${MINIAPP_GPU_BUDGET:-560}
source tools/gpu/runtime.sh  # also: bin, gpus, $out/device.txt and an empty $out/steps.txt
tg() {  # the LES Taylor–Green case on an N³ hex box, split into z-layers
  echo taylor-green-3d --set "mesh.cells=[$1,$1,$1]" --set 'physics.les="wale"' --set 'numerics.poisson="pcg"' \
    --set 'mesh.decomposition="z-layers"'
}
# `ranks NAME LIMIT NP EDGE COMM [bench options...]`: bench ranks with the step of tg EDGE.
ranks() {
  local name=$1 limit=$2 np=$3 edge=$4 comm=$5
  shift 5
  ((np > gpus)) && return
  # shellcheck disable=SC2046
  step "$name" "$limit" mpi "$np" "$bin" bench ranks $(tg "$edge") --comm "$comm" --json "$out/$name.json" "$@"
}
slabs=(--cells-per-rank 1e6,4e6,16e6 --repeat 30 --steps 10)
only_step=(--cells-per-rank 1e5 --repeat 5 --steps 5)

if [[ $part == 1 ]]; then
  step case_test_np4 60 mpi "$gpus" "$build/tests/parallel/parallel_case_test"
  for comm in mpi nccl; do
    step "transport_$comm" 30 mpi "$gpus" "$bin" run cavity-3d --quiet --comm "$comm" --set 'mesh.cells=[32,32,32]' \
      --set run.max_steps=20 --set 'output.fields=[]' --set "output.directory=\"/tmp/transport_$comm\""
    cp "/tmp/transport_$comm/diagnostics.csv" "$out/transport_$comm.csv" 2>/dev/null
  done
  step transport_single 30 "$bin" run cavity-3d --quiet --set 'mesh.cells=[32,32,32]' --set run.max_steps=20 \
    --set 'output.fields=[]' --set 'output.directory="/tmp/transport_single"'
  cp /tmp/transport_single/diagnostics.csv "$out/transport_single.csv" 2>/dev/null
  # Weak scaling at 2·10⁶ cells per GPU: 126³, 159³, 200³.
  ranks ranks_np4_nccl 110 4 200 nccl "${slabs[@]}"
  ranks ranks_np2_nccl 90 2 159 nccl "${slabs[@]}"
  ranks ranks_np1 80 1 126 mpi "${slabs[@]}"
  ranks ranks_np4_mpi 110 4 200 mpi "${slabs[@]}"
else
  # Weak at 8·10⁶ cells per GPU (200³, 252³, 317³); 252³ on 2 GPUs is also the 16·10⁶ strong point.
  ranks weak8_np4 120 4 317 nccl "${only_step[@]}"
  ranks weak8_np2 100 2 252 nccl "${only_step[@]}"
  ranks weak8_np1 90 1 200 mpi "${only_step[@]}"
  ranks strong16_np4 70 4 252 nccl "${only_step[@]}"
  ranks strong16_np1 150 1 252 mpi "${only_step[@]}"
  # 64·10⁶ cells (400³) and the start-up of 10⁸ (464³), 4 GPUs.
  ranks strong64_np4 200 4 400 nccl "${only_step[@]}"
  ranks start100M_np4 250 4 464 nccl --cells-per-rank 1e5 --repeat 2 --steps 2
fi
cat "$out/steps.txt"
