#!/usr/bin/env bash
# On a lent one-GPU machine, the channel's time step (docs/discretisation.md, "Time-step control"):
# `numerics.time_step = "cfl"` at 0.5 (the former setting) against "eigenvalue" at 0.9 (the case's) and
# "eigenvalue" at 0.9 with the κ-scheme (numerics.max_kappa = 1), on the shipped 48×48×32 mesh to t = 20,
# then on 96×96×64 for 1 000 steps as the budget allows; each run's diagnostics.csv (Δt, stability
# fraction, kinetic energy per step) is kept in OUT_DIR.
# Usage: MINIAPP_GPU_BUILD=BUILD [MINIAPP_GPU_BUDGET=470] tools/gpu/timestep.sh OUT_DIR
# BUILD holds miniapp, built by tools/gpu/build.sh.
set -uo pipefail
out=${1:?usage: tools/gpu/timestep.sh OUT_DIR}
build=${MINIAPP_GPU_BUILD:-/tmp/mb}
budget=${MINIAPP_GPU_BUDGET:-470}
source tools/gpu/runtime.sh  # also: bin, $out/device.txt and an empty $out/steps.txt
channel() {  # name, cells, end setting, method, cfl, limit in s, max_kappa (default 0.5)
  step "$1" "$6" "$bin" run channel --backend cuda --quiet --set "mesh.cells=$2" --set "$3" \
    --set "numerics.time_step=\"$4\"" --set "numerics.cfl=$5" --set "numerics.max_kappa=${7:-0.5}" \
    --set 'output.fields=[]' --set output.checkpoint_interval=0 --set "output.directory=\"$out/$1\""
}
channel ch48_eigenvalue_0.9 '[48,48,32]' run.end_time=20 eigenvalue 0.9 120
channel ch48_kappa1_eigenvalue_0.9 '[48,48,32]' run.end_time=20 eigenvalue 0.9 100 1
channel ch48_cfl_0.5 '[48,48,32]' run.end_time=20 cfl 0.5 180
channel ch96_eigenvalue_0.9 '[96,96,64]' run.max_steps=1000 eigenvalue 0.9 80
channel ch96_cfl_0.5 '[96,96,64]' run.max_steps=1000 cfl 0.5 80
