#!/usr/bin/env bash
# On a lent one-GPU machine, from the repository root, with the probe build (MINIAPP_CSR_LANES picks
# the lanes per row of the CSR SpMVs: 32, 16, 8, 4, or half / quarter of the mean row length rounded
# up to a power of two): the shipped channel and cavity-3d 42³ and 128³, `bench step`, each setting
# in turn, two rounds; the AMG level kernels of the channel's hierarchy per setting.
# Usage: bash docs/results/gpu_csr_lanes/probe.sh OUT
set -uo pipefail
out=${1:?usage: probe.sh OUT}
build=build/gpu
budget=560
start=$SECONDS
mkdir -p "$out"
tools/gpu/build.sh "$build" miniapp >"$out/build.txt" 2>&1
echo "build: rc $? in $((SECONDS - start)) s" >>"$out/build.txt"
source tools/gpu/runtime.sh
raw=$out/raw
mkdir -p "$raw"
for round in 1 2; do
  for lanes in 32 16 8 4 half quarter; do
    export MINIAPP_CSR_LANES=$lanes
    step "ch_${lanes}_$round" 60 "$bin" bench step channel --backend cuda --warmup 20 --steps 20
    mv "$out/ch_${lanes}_$round.txt" "$raw/"
    step "cav42_${lanes}_$round" 60 "$bin" bench step cavity-3d --backend cuda --set 'mesh.cells=[42,42,42]' --warmup 20 --steps 20
    mv "$out/cav42_${lanes}_$round.txt" "$raw/"
  done
done
for lanes in 32 16 8 half; do
  export MINIAPP_CSR_LANES=$lanes
  step "cav128_$lanes" 90 "$bin" bench step cavity-3d --backend cuda --set 'mesh.cells=[128,128,128]' --warmup 10 --steps 20
  mv "$out/cav128_$lanes.txt" "$raw/"
  step "levels_ch_$lanes" 60 "$bin" poisson --backend cuda --mesh hex --cells 48,48,32 \
    --length 6.283185307179586,2,3.141592653589793 --stretch 0,2,0 --periodic xz --preconditioner amg --amg-float --level-kernels
  mv "$out/levels_ch_$lanes.txt" "$raw/"
done
for f in "$raw"/*.txt; do
  echo "== $(basename "$f" .txt)"
  grep -E "^AMG:|copy bandwidth|time per step|PCG iterations per step|kernels by time per step|level [0-9]:|  (pointwise|spmv|jacobi)|all calls" "$f" | cut -c1-700
done >"$out/summary.txt"
tar czf "$out/raw.tgz" -C "$out" raw && rm -rf "$raw"
