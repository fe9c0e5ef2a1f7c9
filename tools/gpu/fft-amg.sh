#!/usr/bin/env bash
# On a lent one-GPU machine, AMG against AIP-1 for the FFT path's low frequency systems
# (docs/fft-poisson.md), about 7 minutes: the CUDA test of the FFT solve with AMG blocks (CPU against
# CUDA); then 40 steps of Taylor–Green at 128³ and of the channel at 96 × 96 × 64 on the FFT path with
# numerics.preconditioner = "aip1" and "amg" (the number of low-frequency blocks chosen on the
# solves of steps 2 and 3, as in a user's run) and with one AMG block and with none forced. Each run's
# summary gives the blocks chosen, ms per step,
# Poisson iterations per step (the largest over the frequencies), the iterations of every frequency
# and the step's bytes.
# Usage: MINIAPP_GPU_BUILD=BUILD [MINIAPP_GPU_BUDGET=350] tools/gpu/fft-amg.sh OUT_DIR
# BUILD holds miniapp and tests/fft/cuda/fft_cuda_test, built by
# `tools/gpu/build.sh BUILD miniapp fft_cuda_test` (whose .debs/ must hold libeigen3-dev).
set -uo pipefail
out=${1:?usage: tools/gpu/fft-amg.sh OUT_DIR}
build=${MINIAPP_GPU_BUILD:-/tmp/mb}
budget=${MINIAPP_GPU_BUDGET:-350}
source tools/gpu/runtime.sh  # also: bin, $out/device.txt and an empty $out/steps.txt
run_case() {  # name, case, cells, preconditioner, low-frequency blocks (-1: the solves of steps 2-3 choose)
  step "$1" 55 "$bin" run "$2" --backend cuda --set "mesh.cells=$3" --set run.max_steps=40 \
    --set 'numerics.poisson="fft"' --set "numerics.preconditioner=\"$4\"" \
    --set "numerics.fft_low_frequency_blocks=$5" --set 'output.fields=[]' --set 'output.interval=0' \
    --set "output.directory=\"/tmp/fft_amg_$1\""
}
step fft_cuda_test_amg 60 "$build/tests/fft/cuda/fft_cuda_test" "[amg]"
# AMG's choice and the forced configurations first, AIP-1 last (a tight budget skips it first).
run_case tg128_amg taylor-green-3d '[128,128,128]' amg -1
run_case tg128_amg_1block taylor-green-3d '[128,128,128]' amg 1
run_case tg128_jacobi taylor-green-3d '[128,128,128]' amg 0
run_case channel96_amg channel '[96,96,64]' amg -1
run_case channel96_amg_1block channel '[96,96,64]' amg 1
run_case channel96_jacobi channel '[96,96,64]' amg 0
run_case tg128_aip1 taylor-green-3d '[128,128,128]' aip1 -1
run_case channel96_aip1 channel '[96,96,64]' aip1 -1
# One line per run: ms/step and iterations per step, then the frequencies' iterations.
for f in "$out"/tg128_*.txt "$out"/channel96_*.txt; do
  [[ -f $f ]] || continue
  echo "== $(basename "$f" .txt)"
  grep -E "^FFT Poisson: Nper|FFT Poisson preconditioner|ms/step|iterations per solve by frequency|kernels per step" "$f"
done >"$out/summary.txt"
