#!/usr/bin/env bash
# On a lent one-GPU machine, numerics.poisson = "auto" against each pressure path named (docs/fft-poisson.md,
# "Choice of path"): every case whose mesh the FFT path takes, run from its start with "auto", "fft" and
# "pcg" in turn; each run's log (the choice made at step 4, ms/step) in OUT_DIR, and summary.txt with
# the lines the docs quote.
# Usage: MINIAPP_GPU_BUILD=BUILD [MINIAPP_GPU_BUDGET=500] tools/gpu/pressure-paths.sh OUT_DIR
# BUILD holds miniapp, built by tools/gpu/build.sh.
set -uo pipefail
out=${1:?usage: tools/gpu/pressure-paths.sh OUT_DIR}
build=${MINIAPP_GPU_BUILD:-/tmp/mb}
budget=${MINIAPP_GPU_BUDGET:-500}
source tools/gpu/runtime.sh  # also: bin, $out/device.txt and an empty $out/steps.txt
export MINIAPP_CASES_DIR=$PWD/cases
trio() {  # name, case, steps, overrides...: the run with each setting of numerics.poisson
  local name=$1 case=$2 steps=$3
  shift 3
  local sets=()
  for s in "$@"; do sets+=(--set "$s"); done
  for p in auto fft pcg; do
    step "$name-$p" 240 "$bin" run "$case" --backend cuda --quiet --set run.max_steps="$steps" \
      --set 'output.fields=[]' --set output.checkpoint_interval=0 --set "output.directory=\"/tmp/paths-$name-$p\"" \
      --set "numerics.poisson=\"$p\"" "${sets[@]}"
  done
}
trio cylinder-3900 cylinder-3900 300
trio channel channel 1500
trio tg128 taylor-green-3d 400 'mesh.cells=[128,128,128]' 'physics.les="none"'
trio channel-fine channel 600 'mesh.cells=[96,64,64]'
trio tg64 taylor-green-3d 800
trio cylinder-bl cylinder-3900 300 'mesh.file="meshes/cylinder_boundary_layer.msh"'
for f in "$out"/*-auto.txt "$out"/*-fft.txt "$out"/*-pcg.txt; do
  echo "== $(basename "$f")"
  grep -E "pressure  |ms/step" "$f"
done >"$out/summary.txt"
