#!/usr/bin/env bash
# On a lent one-GPU machine, from the repository root, on the tree with the lanes per CSR row chosen
# by cuda::csr_lanes: the CUDA tests of the kernels and AMG's "[cuda]" cases; `bench step` of the shipped channel and
# of cavity-3d 42³ and 128³, two rounds; one calibration (cavity-3d 32³ with AMG), then `predict
# --measure` of the shipped channel and of cavity-3d 42³ and 48³ on it; `miniapp poisson` with AMG on
# cavity-3d's 42³ mesh and on a periodic 40³ box (the calibration's stencil).
# Usage: bash docs/results/h100_2026-12-06_csr_lanes/verify.sh OUT
set -uo pipefail
out=${1:?usage: verify.sh OUT}
build=build/gpu
budget=420
start=$SECONDS
mkdir -p "$out"
tools/gpu/build.sh "$build" miniapp cuda_kernels_test amg_test >"$out/build.txt" 2>&1
echo "build: rc $? in $((SECONDS - start)) s" >>"$out/build.txt"
source tools/gpu/runtime.sh
date -u >>"$out/device.txt"
step cuda_kernels_test 120 "$build/tests/cuda/cuda_kernels_test"
step amg_test 120 "$build/tests/solvers/amg_test" "[cuda]"
for round in 1 2; do
  step "ch_$round" 60 "$bin" bench step channel --backend cuda --warmup 20 --steps 20
  step "cav42_$round" 60 "$bin" bench step cavity-3d --backend cuda --set 'mesh.cells=[42,42,42]' --warmup 20 --steps 20
  step "cav128_$round" 90 "$bin" bench step cavity-3d --backend cuda --set 'mesh.cells=[128,128,128]' --warmup 10 --steps 20
done
step poisson_cav42 60 "$bin" poisson --backend cuda --mesh hex --cells 42,42,42 --stretch 1.2,1.2,1.2 --periodic none \
  --preconditioner amg --amg-float
step poisson_periodic40 60 "$bin" poisson --backend cuda --mesh hex --cells 40,40,40 --preconditioner amg --amg-float
step predict_cal 240 "$bin" predict cavity-3d --set 'numerics.preconditioner="amg"' --backend cuda --calibrate \
  --calibration "$out/calibration.json" --measure --measure-steps 20 --devices 1 --no-plots --output /tmp/pc
step predict_channel 90 "$bin" predict channel --backend cuda --calibration "$out/calibration.json" --measure \
  --measure-steps 20 --devices 1 --no-plots --output /tmp/pch
for n in 42 48; do
  step "predict_cav$n" 90 "$bin" predict cavity-3d --set "mesh.cells=[$n,$n,$n]" --backend cuda \
    --calibration "$out/calibration.json" --measure --measure-steps 20 --devices 1 --no-plots --output "/tmp/pc$n"
done
{
  for t in cuda_kernels_test amg_test; do echo "$t: $(tail -3 "$out/$t.txt" | tr -s '\n' ' ')"; done
  for f in "$out"/ch_*.txt "$out"/cav*.txt "$out"/poisson_*.txt; do
    echo "== $(basename "$f" .txt)"
    grep -E "^AMG:|AMG: |copy bandwidth|time per step|PCG iterations per step|kernels by time per step|^amg " "$f" | cut -c1-600
  done
  for f in "$out"/predict_*.txt; do
    echo "== $(basename "$f" .txt)"
    grep -E "AMG:|^\| 2.2 Poisson solve \||^\| 6 time step|step \(wall" "$f"
  done
} >"$out/summary.txt"
mkdir -p "$out/raw" && mv "$out"/ch_*.txt "$out"/cav*.txt "$out"/*_test.txt "$out"/predict_*.txt "$out"/poisson_*.txt "$out/build.txt" "$out/raw/" && tar czf "$out/raw.tgz" -C "$out" raw && rm -rf "$out/raw"
