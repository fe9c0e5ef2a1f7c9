#!/usr/bin/env bash
# The watchdog's exchange at the end of a step on 2 ranks (CTest: watchdog_exchange; docs/reliability.md):
# with rank 1, then rank 0, stopped there, the other ends the job within run.watchdog_timeout (plus
# mpirun's clean-up), exits non-zero and names the stopped rank and its pid.
# Usage: watchdog_exchange_test.sh MPIEXEC PROGRAM TIMEOUT_SECONDS
set -u
mpiexec=$1 program=$2 limit=$3
fail() { echo "FAIL: $*"; exit 1; }
for stopped in 1 0; do
  waiting=$((1 - stopped))
  log=$("$mpiexec" -np 2 --oversubscribe "$program" "$stopped" "$limit" 2>&1)
  status=$? end=$(date +%s.%N)
  [ "$status" -ne 0 ] || fail "the job with rank $stopped stopped exited 0: $log"
  grep -q "rank $waiting: rank $stopped did not reach the end of step 1 within $limit s (run.watchdog_timeout)" <<<"$log" ||
    fail "rank $waiting did not name rank $stopped: $log"
  grep -q "rank $stopped (pid [0-9]*) is stopped" <<<"$log" || fail "the stopped rank's state is not given: $log"
  start=$(sed -n "s/^rank $waiting waits from //p" <<<"$log")
  [ -n "$start" ] || fail "rank $waiting did not say when it started to wait: $log"
  # At least the limit (the waiting rank gives the stopped one all of it), at most 5 s more (mpirun's
  # clean-up of the stopped rank on a loaded machine).
  awk -v s="$start" -v e="$end" -v l="$limit" 'BEGIN { exit !(e - s >= l && e - s <= l + 5) }' ||
    fail "rank $stopped stopped: the job ended $(awk -v s="$start" -v e="$end" 'BEGIN { print e - s }') s after rank $waiting began to wait (limit $limit s): $log"
  echo "rank $stopped stopped: rank $waiting ended the job $(awk -v s="$start" -v e="$end" 'BEGIN { printf "%.2f", e - s }') s after it began to wait ($(grep -m1 -o "rank $waiting: rank $stopped did not reach.*" <<<"$log"))"
done
