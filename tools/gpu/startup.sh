#!/usr/bin/env bash
# On a GPU machine (one GPU, all host cores for the set-up): the start-up of cavity-3d on the CUDA
# backend, hex and tet meshes of 10⁶, 3·10⁶, 10⁷ and 3·10⁷ cells, one step each (Poisson tolerance
# loosened, no VTK: only the set-up is measured). Each run's stage lines (wall time, peak host memory)
# and its start-up line go to OUT_DIR/NAME.txt, start-up lines together to OUT_DIR/summary.txt. Runs
# in order of size and stops before a run that would pass the budget (MINIAPP_GPU_BUDGET seconds,
# default 340: the whole script within 6 minutes).
# MINIAPP_STARTUP_TOUCH_GB=N first writes N GB of host memory once and frees it: a lent machine is a
# virtual machine whose host backs its memory where it is first touched, which the first run to use
# that much memory pays for (docs/performance.md, the start-up on one H200's host); touched first,
# every run finds its memory backed, as on bare metal. The time it took goes to steps.txt (and counts
# against the budget: raise it by as much).
# Usage: MINIAPP_GPU_BUILD=BUILD [MINIAPP_GPU_BUDGET=340] [MINIAPP_STARTUP_TOUCH_GB=N] tools/gpu/startup.sh OUT_DIR
set -uo pipefail
out=${1:?usage: MINIAPP_GPU_BUILD=BUILD tools/gpu/startup.sh OUT_DIR}
build=${MINIAPP_GPU_BUILD:-build/gpu}
budget=${MINIAPP_GPU_BUDGET:-340}
source tools/gpu/runtime.sh  # also: bin, $out/device.txt and an empty $out/steps.txt
export OMP_NUM_THREADS=$(nproc)
git log -1 --format='%H %cI' >"$out/commit.txt" 2>/dev/null
# `startup NAME LIMIT GENERATOR EDGE`: cavity-3d on an EDGE³ box of GENERATOR cells (tet: 6 per box cell).
startup() {
  local name=$1 limit=$2 generator=$3 edge=$4
  step "$name" "$limit" "$bin" run cavity-3d --backend cuda --quiet --set "mesh.generator=\"$generator\"" \
    --set "mesh.cells=[$edge,$edge,$edge]" --set run.max_steps=1 --set numerics.poisson_tolerance=0.1 \
    --set 'output.fields=[]' --set "output.directory=\"/tmp/startup_$name\""
  echo "$name: $(grep -E '^  start-up' "$out/$name.txt")" >>"$out/summary.txt"
  rm -rf "/tmp/startup_$name"
}
: >"$out/summary.txt"
if [[ -n ${MINIAPP_STARTUP_TOUCH_GB:-} ]]; then
  # A byte written in every 4 KiB page faults each page in; the block is freed on exit.
  step touch_memory 120 python3 -c "n = int($MINIAPP_STARTUP_TOUCH_GB * 1e9); b = bytearray(n); b[::4096] = bytes([1]) * len(range(0, n, 4096))"
  grep -q '^touch_memory: rc 0 ' "$out/steps.txt" && echo "host memory touched first: $MINIAPP_STARTUP_TOUCH_GB GB" >>"$out/summary.txt"
fi
# Limits: about 8 s per 10⁶ cells before this work (issue 24), with room for the step and the checkpoint.
startup hex_1e6 30 hex 100
startup tet_1e6 30 tet 55
startup hex_3e6 50 hex 144
startup tet_3e6 50 tet 79
startup hex_1e7 120 hex 215
startup tet_1e7 120 tet 119
startup hex_3e7 200 hex 311
startup tet_3e7 200 tet 171
cat "$out/summary.txt" "$out/steps.txt"
