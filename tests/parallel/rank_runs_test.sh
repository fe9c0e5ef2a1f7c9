#!/usr/bin/env bash
# Whole-program checks of multi-rank runs (CTest: rank_runs): a run on 3 ranks stopped and restarted
# gives bitwise the checkpoints of one run straight through; a restart on another rank count, and
# more ranks than cells, and more CUDA ranks on a node than GPUs, stop every rank with one clear
# message and a non-zero exit.
# Usage: rank_runs_test.sh MINIAPP MPIEXEC WORK_DIR
# The runs but the CUDA one on the CPU backend: on a host with fewer GPUs than ranks the automatic
# choice refuses.
set -u
miniapp=$1 mpiexec=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
run() {  # run NP DIR STEPS [extra args...]
  local np=$1 dir=$2 steps=$3; shift 3
  "$mpiexec" -np "$np" --oversubscribe "$miniapp" run cavity --quiet --backend cpu --set "mesh.cells=[16,16,1]" \
    --set "run.max_steps=$steps" --set output.fields=[] --set "output.directory=\"$dir\"" \
    --set statistics.start_time=0 --set forces.ymax.reference_area=0.015625 \
    --set "probes.centre.position=[0.3,0.6,0.007]" "$@"
}
# The numbers of the last lines of CSV files $1 and $2 agree to a relative 1e-5 (absolute 1e-10): the
# ranks' block preconditioner solves the pressure to the tolerance along another path, and sums reduce
# in another order. Columns listed in $3 (1-based, space-separated) are left out.
same_last_line() {
  paste -d ' ' <(tail -1 "$1" | tr ',' '\n') <(tail -1 "$2" | tr ',' '\n') |
    awk -v skip=" ${3:-} " '{ n++; if (index(skip, " " n " ")) next; d = $1 - $2; if (d < 0) d = -d
      s = ($1 < 0 ? -$1 : $1); if (d > 1e-5 * s && d > 1e-10) bad = bad " column " n ": " $1 " vs " $2 }
      END { if (bad) { print bad; exit 1 } }'
}
fail() { echo "FAIL: $*"; exit 1; }

run 3 straight 10 >straight.log 2>&1 || fail "straight run: $(tail -3 straight.log)"
run 3 split 5 >first.log 2>&1 || fail "first half: $(tail -3 first.log)"
run 3 split 10 --restart split >second.log 2>&1 || fail "restart: $(tail -3 second.log)"
for r in 0 1 2; do
  cmp -s straight/checkpoint_10_r$r.bin split/checkpoint_10_r$r.bin || fail "rank $r: restarted checkpoint differs"
done
echo "restart on 3 ranks: bitwise equal (fields, averages' sums)"

# The observers on 3 ranks against 1: forces, probes and the diagnostics (wall quantities included).
run 1 single 10 >single.log 2>&1 || fail "one rank: $(tail -3 single.log)"
for f in forces_ymax.csv probes.csv; do
  why=$(same_last_line single/$f straight/$f) || fail "$f on 3 ranks differs from 1 rank:$why"
done
# Left out: max_div, the Poisson iterations and residual, wall seconds.
why=$(same_last_line single/diagnostics.csv straight/diagnostics.csv "13 14 15 28") || fail "diagnostics on 3 ranks differ:$why"
grep -q "forces    ymax" straight.log || fail "no forces summary: $(tail -3 straight.log)"
echo "observers on 3 ranks: equal to 1 rank"

# A case's warning is printed once, by rank 0, not by every rank.
run 3 warned 1 --set 'numerics.preconditioner="jacobi"' --set 'numerics.amg_storage="float"' >warned.log 2>&1 ||
  fail "warned run: $(tail -3 warned.log)"
[ "$(grep -c '^warning' warned.log)" -eq 1 ] || fail "expected one warning line on 3 ranks: $(grep warning warned.log)"
echo "a case's warning on 3 ranks: printed once"

# A restart with another rank count: refused by every rank with one message.
if run 2 split 12 --restart split >wrong_ranks.log 2>&1; then fail "restart on 2 ranks from a 3-rank checkpoint ran"; fi
grep -q "written by 3 ranks, this run has 2" wrong_ranks.log || fail "no rank-count message: $(cat wrong_ranks.log)"
[ "$(grep -c 'error' wrong_ranks.log)" -eq 1 ] || fail "expected one error line: $(cat wrong_ranks.log)"
echo "restart on 2 ranks: refused ($(grep error wrong_ranks.log))"

# More ranks than cells.
if "$mpiexec" -np 3 --oversubscribe "$miniapp" run cavity --quiet --backend cpu --set "mesh.cells=[1,2,1]" \
  --set output.fields=[] >too_many.log 2>&1; then fail "3 ranks on 2 cells ran"; fi
grep -q "error" too_many.log || fail "no message: $(cat too_many.log)"
[ "$(grep -c 'error' too_many.log)" -eq 1 ] || fail "expected one error line: $(cat too_many.log)"
echo "3 ranks on 2 cells: refused ($(grep error too_many.log))"

# A CUDA run with more ranks on the node than GPUs (here: none visible, or fewer than 3).
gpus=$(nvidia-smi -L 2>/dev/null | grep -c GPU || true)
if [ "${gpus:-0}" -lt 3 ]; then
  if "$mpiexec" -np 3 --oversubscribe "$miniapp" run cavity --quiet --backend cuda --set output.fields=[] \
    >gpus.log 2>&1; then fail "3 CUDA ranks on ${gpus:-0} GPUs ran"; fi
  [ "$(grep -c 'error' gpus.log)" -eq 1 ] || fail "expected one error line: $(cat gpus.log)"
  echo "3 CUDA ranks on ${gpus:-0} GPUs: refused ($(grep error gpus.log))"
fi
