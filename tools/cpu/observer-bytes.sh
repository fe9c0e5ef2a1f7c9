#!/usr/bin/env bash
# The observers' bytes per step against the step's, counted by the CPU backend's kernel counters (the
# same on every backend): Taylor-Green 3D at 32³ (FFT path), cavity-3d at 48³ (AMG: auto from 10⁵
# cells), channel at its 48×48×32; each with the default output, then with [statistics] sampled from
# t = 0 (the channel's own [statistics] otherwise starts at t = 50). 20 steps each, under a minute
# on two cores. Prints one "kernels per step" line per run.
# Usage: tools/cpu/observer-bytes.sh [MINIAPP] [EXTRA --set ...]   (MINIAPP default build/cpu/miniapp/miniapp)
set -uo pipefail
bin=${1:-build/cpu/miniapp/miniapp}
shift $(( $# > 0 ? 1 : 0 ))
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
run() {  # label, case, overrides...
  local label=$1 case=$2; shift 2
  local line
  line=$("$bin" run "$case" --quiet --set run.max_steps=20 --set 'output.fields=[]' \
    --set "output.directory=$work/$label" "$@" 2>&1 | grep -A1 'observers .* of the time step' | tail -1)
  printf '%-22s %s\n' "$label" "${line:-FAILED}"
}
for stats in "" statistics; do
  extra=()
  [ -n "$stats" ] && extra=(--set statistics.start_time=0)
  run "taylor-green-3d${stats:+ +stats}" taylor-green-3d --set 'mesh.cells=[32,32,32]' "${extra[@]}" "$@"
  run "cavity-3d${stats:+ +stats}" cavity-3d --set 'mesh.cells=[48,48,48]' "${extra[@]}" "$@"
  run "channel${stats:+ +stats}" channel "${extra[@]}" "$@"
done
