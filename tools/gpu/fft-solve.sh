#!/usr/bin/env bash
# On one GPU, after `tools/gpu/build.sh BUILD miniapp fft_cuda_test`: the FFT path's solve in the time
# loop, Taylor–Green 64³ and 128³. Runs fft_cuda_test; per size `miniapp bench step` (the device's
# timeline: each kernel's time and the idle share of the step) and `miniapp predict --measure` on one
# calibration; with BASE (another build's miniapp, e.g. the commit before a change) the same bench
# steps alternated with it, twice. Results in OUT_DIR: steps.txt, each step's output, summary.txt.
# Usage: MINIAPP_GPU_BUILD=BUILD [BASE=path/to/miniapp] [MINIAPP_GPU_BUDGET=540] tools/gpu/fft-solve.sh OUT_DIR
set -uo pipefail
out=${1:?usage: MINIAPP_GPU_BUILD=BUILD tools/gpu/fft-solve.sh OUT_DIR}
build=${MINIAPP_GPU_BUILD:-build/gpu}
budget=${MINIAPP_GPU_BUDGET:-540}
source tools/gpu/runtime.sh  # also: bin, $out/device.txt and an empty $out/steps.txt
tg=(taylor-green-3d --backend cuda --set 'numerics.poisson="fft"')
step fft_cuda_tests 120 "$build/tests/fft/cuda/fft_cuda_test"
for round in 1 2; do
  for n in 64 128; do
    step "bench${n}_$round" 60 "$bin" bench step "${tg[@]}" --set "mesh.cells=[$n,$n,$n]" --warmup 20 --steps 20
    [[ -n ${BASE:-} ]] && step "bench${n}_base_$round" 60 "$BASE" bench step "${tg[@]}" --set "mesh.cells=[$n,$n,$n]" --warmup 20 --steps 20
  done
done
step predict64 150 "$bin" predict "${tg[@]}" --set 'mesh.cells=[64,64,64]' --calibrate --calibration "$out/calibration.json" \
  --measure --measure-steps 20 --devices 1 --no-plots --output "$out/predict64"
step predict128 60 "$bin" predict "${tg[@]}" --set 'mesh.cells=[128,128,128]' --calibration "$out/calibration.json" \
  --measure --measure-steps 20 --devices 1 --no-plots --output "$out/predict128"
{
  for f in "$out"/bench*.txt; do
    echo "$(basename "$f" .txt): $(grep -E '^time per step' "$f") |$(grep -E 'host reads per step' "$f" | sed 's/.*;//') | $(grep -E 'device idle' "$f" | sed 's/^ *//')"
  done
  for f in predict64 predict128; do
    echo "$f: $(grep -E '^\| \*\*step' "$out/$f.txt") solve: $(grep -E '^\| 2.2 Poisson solve \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \| [0-9.]+ \| [-+0-9.]+ %' "$out/$f.txt")"
  done
} >"$out/summary.txt"
cat "$out/steps.txt" "$out/summary.txt"
