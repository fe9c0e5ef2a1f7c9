#!/usr/bin/env bash
# Host memory and CPU time of every rank at the end of the mesh stage of a case on P CPU ranks: the
# figures of docs/multi-rank.md (distributed start-up). Starts `mpirun -np P miniapp run CASE`, waits
# until rank 0 prints the mesh stage time, its parts and the host-memory line, prints them, reads each
# rank's VmHWM and user + system time from /proc, then stops the run.
# Usage: tools/cpu/mesh-stage.sh MINIAPP P [CASE [--set ...]]   (default CASE: cylinder-3900, PCG + Jacobi)
set -euo pipefail
bin=${1:?usage: tools/cpu/mesh-stage.sh MINIAPP P [CASE [--set ...]]}
ranks=${2:?usage: tools/cpu/mesh-stage.sh MINIAPP P [CASE [--set ...]]}
shift 2
args=("$@")
((${#args[@]})) || args=(cylinder-3900 --set 'numerics.poisson="pcg"' --set 'numerics.preconditioner="jacobi"')
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
mpirun -np "$ranks" --oversubscribe "$bin" run "${args[@]}" --set run.max_steps=1 --set 'output.fields=[]' \
  --set "output.directory=\"$out/run\"" >"$out/log" 2>&1 &
mpi=$!
until grep -q '^  host memory peak' "$out/log"; do
  kill -0 "$mpi" 2>/dev/null || { cat "$out/log"; exit 1; }
  sleep 0.2
done
sed -n '/^  mesh  /,/^  host memory peak/p' "$out/log"
ticks=$(getconf CLK_TCK)
for pid in $(pgrep -P "$mpi" -x miniapp); do
  awk '/^VmHWM/ {printf "rank peak %.2f GB", $2 * 1024 / 1e9}' "/proc/$pid/status"
  awk -v t="$ticks" '{printf ", cpu %.1f s\n", ($14 + $15) / t}' "/proc/$pid/stat"
done
kill "$mpi"
wait "$mpi" 2>/dev/null || true
