#!/usr/bin/env bash
# Whole-program reliability checks on 2 ranks (CTest: reliability; docs/reliability.md): a few SIGKILLs
# and a SIGTERM with restarts ending bitwise where an uninterrupted run ends (the short version of
# scripts/kill_test.sh), a damaged newest checkpoint skipped for the one before, a set whose ranks'
# files disagree refused, and a stopped rank ending the job through the watchdog with its name.
# Usage: reliability_test.sh SOURCE_DIR MINIAPP MPIEXEC WORK_DIR
# Every run on the CPU backend: on a host with fewer GPUs than ranks the automatic choice refuses.
set -u
source_dir=$1 miniapp=$2 mpiexec=$3 work=$4
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
run() {  # run DIR STEPS [extra args...]
  local dir=$1 steps=$2; shift 2
  "$mpiexec" -np 2 --oversubscribe "$miniapp" run cavity --quiet --backend cpu --set "mesh.cells=[16,16,1]" \
    --set "run.max_steps=$steps" --set output.fields=[] --set numerics.dt=0.005 --set output.checkpoint_interval=0.01 \
    --set "output.directory=\"$dir\"" "$@"
}

"$source_dir/scripts/kill_test.sh" -n 2 -k 2 -t 100 -b cpu -m "$miniapp" -w "$work/kill" || fail "SIGKILL"
"$source_dir/scripts/kill_test.sh" -n 2 -k 1 -t 100 -s TERM -b cpu -m "$miniapp" -w "$work/term" || fail "SIGTERM"

# The newest generation damaged on rank 1: the restart says so and takes the one before.
run damaged 8 >first.log 2>&1 || fail "first run: $(tail -3 first.log)"
printf 'XXXX' | dd of=damaged/checkpoint_8_r1.bin bs=1 seek=300 conv=notrunc 2>/dev/null
run damaged 10 --restart damaged >fallback.log 2>&1 || fail "fallback restart: $(tail -3 fallback.log)"
grep -q "the checkpoint at step 8 is unusable: rank 1: .*checksum mismatch" fallback.log ||
  fail "no message for the damaged generation: $(cat fallback.log)"
grep -q "restart   from damaged at step 6" fallback.log || fail "did not fall back to step 6: $(cat fallback.log)"
echo "damaged newest checkpoint: fell back to the one before"

# A hand-made mix: rank 1's file of step 10 taken from a run with another time step (same mesh and
# physics, so each file alone is sound), and no older generation to fall back to.
run mixed 10 >mixed_first.log 2>&1 || fail "run: $(tail -3 mixed_first.log)"
run other 10 --set numerics.dt=0.004 >other.log 2>&1 || fail "run: $(tail -3 other.log)"
cp other/checkpoint_10_r1.bin mixed/checkpoint_10_r1.bin
rm -f mixed/checkpoint_8.complete
if run mixed 12 --restart mixed >mixed.log 2>&1; then fail "a mixed set ran: $(cat mixed.log)"; fi
grep -q "error: cannot restart: no usable checkpoint in mixed (step 10: the ranks' files disagree" mixed.log ||
  fail "no disagreement message: $(cat mixed.log)"
[ "$(grep -c 'error' mixed.log)" -eq 1 ] || fail "expected one error line: $(cat mixed.log)"
echo "mixed set: refused ($(grep error mixed.log))"

# One rank stopped (SIGSTOP): the watchdog ends the job within its limit and names the rank.
run stopped 100000 --set run.watchdog_timeout=3 >stopped.log 2>&1 &
job=$!
# Both ranks in the time loop (a first checkpoint written) before one is stopped; a fixed wait was too
# short on a loaded machine, where the launcher had not yet started the ranks.
start=$SECONDS
until compgen -G "stopped/checkpoint_*.complete" >/dev/null || [ $((SECONDS - start)) -ge 60 ]; do sleep 0.2; done
launcher=$(pgrep -P "$job")  # run's mpirun, a child of the background subshell
victim=$(pgrep -P "$launcher" | sed -n 2p)
[ -n "$victim" ] || { kill -KILL "$job" 2>/dev/null; fail "no rank to stop after $((SECONDS - start)) s: $(tail -3 stopped.log)"; }
kill -STOP "$victim"
start=$SECONDS
while kill -0 "$job" 2>/dev/null && [ $((SECONDS - start)) -lt 30 ]; do sleep 0.5; done
kill -0 "$job" 2>/dev/null && { kill -KILL "$job" "$victim"; fail "the job still runs 30 s after a rank stopped"; }
wait "$job" && fail "the job with a stopped rank exited 0"
grep -q "rank 1 (pid $victim) is stopped" stopped.log || fail "the stopped rank is not named: $(cat stopped.log)"
echo "stopped rank: job ended after $((SECONDS - start)) s ($(grep -m1 'is stopped' stopped.log))"
