#!/usr/bin/env bash
# Kills runs at random moments and checks that restarting them ends bitwise where an uninterrupted
# run ends (docs/reliability.md). Each episode runs the cavity to its last step, killed KILLS_PER_RUN
# times on the way and restarted from its newest checkpoint each time; a checkpoint is written every
# step, so many kills land inside checkpoint writes. SIGKILL goes to one rank or to all of them at
# once (a crashed process, a lost node); SIGTERM goes to one rank, the run must then stop with a
# checkpoint of its own. After each episode the last checkpoint files and diagnostics.csv (less its
# wall-clock column) must equal the uninterrupted run's, byte for byte.
# Usage: kill_test.sh [-n RANKS] [-k KILLS] [-s KILL|TERM] [-t STEPS] [-b BACKEND] [-m MINIAPP] [-w WORK_DIR]
# (defaults: 2 ranks, 50 kills, SIGKILL, 80 steps, --backend auto; CI runs a short version on the CPU
# backend, tests/parallel)
set -u
ranks=2 kills=50 signal=KILL steps=80 backend=auto
miniapp=$(dirname "$0")/../build/release/miniapp/miniapp work=${TMPDIR:-/tmp}/miniapp_kill_test
while getopts "n:k:s:t:b:m:w:" opt; do
  case $opt in
    n) ranks=$OPTARG ;; k) kills=$OPTARG ;; s) signal=$OPTARG ;; t) steps=$OPTARG ;; b) backend=$OPTARG ;;
    m) miniapp=$OPTARG ;; w) work=$OPTARG ;;
    *) echo "usage: $0 [-n RANKS] [-k KILLS] [-s KILL|TERM] [-t STEPS] [-b BACKEND] [-m MINIAPP] [-w WORK_DIR]"; exit 2 ;;
  esac
done
miniapp=$(realpath "$miniapp")
kills_per_run=$(( kills < 5 ? kills : 5 ))
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

# start DIR [extra args]: the run in the background; its pid in $run_pid.
start() {
  local dir=$1; shift
  local args=(run cavity --quiet --backend "$backend" --set "mesh.cells=[16,16,1]" --set "run.max_steps=$steps" --set output.fields=[]
              --set numerics.dt=0.005 --set output.checkpoint_interval=0.005 --set "output.directory=\"$dir\"" "$@")
  if [ "$ranks" -gt 1 ]; then mpirun -np "$ranks" "$miniapp" "${args[@]}" >>"$dir.log" 2>&1 &
  else "$miniapp" "${args[@]}" >>"$dir.log" 2>&1 &
  fi
  run_pid=$!
}

# The processes that compute: the ranks under mpirun, or the run itself.
workers() { if [ "$ranks" -gt 1 ]; then pgrep -P "$run_pid"; else echo "$run_pid"; fi; }

# How many runs of DIR have finished their set-up (each prints its "output" line then).
starts() { cat "$1.log" 2>/dev/null | grep -c "^output"; }
# Runs that got to their end: a summary without a stop (a stopped run prints its summary too).
completed() { echo $(( $(cat "$1.log" 2>/dev/null | grep -c "^summary") - $(cat "$1.log" 2>/dev/null | grep -c "^stopped   by") )); }

strip_wall() { sed 's/,[^,]*$//' "$1"; }

# Waits for the run started last and sets $rc to its exit status. An mpirun still alive 30 s after
# its last rank ended is ended (Open MPI 4.1's mpirun has been seen to hang in PMIx_server_finalize
# after a rank was killed): the files the ranks left are what this test checks. Counted in $launcher_hangs.
wait_run() {
  local ranks_gone_since=
  while kill -0 "$run_pid" 2>/dev/null; do
    if [ "$ranks" -gt 1 ] && ! ps -o stat= --ppid "$run_pid" | grep -qv '^Z'; then
      ranks_gone_since=${ranks_gone_since:-$SECONDS}
      if [ $((SECONDS - ranks_gone_since)) -ge 30 ]; then
        kill -KILL "$run_pid" 2>/dev/null
        launcher_hangs=$((launcher_hangs + 1))
      fi
    else
      ranks_gone_since=
    fi
    sleep 0.2
  done
  wait "$run_pid"; rc=$?
}

launcher_hangs=0
reference_start=$(date +%s.%N)
mkdir -p reference && start reference && wait_run
[ "$rc" -eq 0 ] || fail "uninterrupted run: $(tail -3 reference.log)"
# Kill moments are drawn within the uninterrupted run's length, so that they land inside runs
# whatever the machine's speed.
run_seconds=$(awk -v a="$reference_start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.3f", b - a }')

total=0 in_write=0 episodes=0
while [ "$total" -lt "$kills" ]; do
  episodes=$((episodes + 1)); dir=episode$episodes; mkdir -p "$dir"
  [ "$episodes" -le $((10 * kills + 20)) ] || fail "$episodes runs but only $total kills landed before a run's end"
  done_kills=0
  while true; do
    restart=()
    ls "$dir"/checkpoint_*.complete >/dev/null 2>&1 && restart=(--restart "$dir")
    before=$(starts "$dir") completed_before=$(completed "$dir")
    start "$dir" "${restart[@]}"
    if [ "$done_kills" -ge "$kills_per_run" ]; then
      wait_run
      [ "$rc" -eq 0 ] || fail "$dir: last run: $(tail -3 "$dir.log")"
      break
    fi
    # A random moment of the run: set-up, steps, checkpoint writes. SIGTERM is only asked to save the
    # run once it runs (before, there is nothing to save and the signal ends the process), in the
    # part of the run that is left then.
    window=0.8
    if [ "$signal" = TERM ]; then
      while [ "$(starts "$dir")" -le "$before" ] && kill -0 "$run_pid" 2>/dev/null; do sleep 0.05; done
      window=0.4
    fi
    resumed_at=$(ls "$dir" | sed -n 's/^checkpoint_\([0-9]*\)\.complete$/\1/p' | sort -n | tail -1)
    left=$(awk -v s="${resumed_at:-0}" -v n="$steps" 'BEGIN { printf "%.3f", (n - s) / n }')
    sleep "$(awk -v r=$RANDOM -v t="$run_seconds" -v w=$window -v l="$left" 'BEGIN { printf "%.3f", 0.02 + w * l * t * r / 32768 }')"
    pids=$(workers)
    if [ -z "$pids" ] || ! kill -0 "$run_pid" 2>/dev/null; then  # it ended before the kill
      wait_run
      [ "$rc" -eq 0 ] || fail "$dir: a run failed without a kill: $(tail -3 "$dir.log")"
      break
    fi
    if [ "$signal" = KILL ] && [ $((RANDOM % 2)) -eq 0 ]; then
      kill -KILL $pids 2>/dev/null                                  # every rank at once
    else
      kill -"$signal" "$(echo "$pids" | shuf -n 1)" 2>/dev/null    # one rank
    fi
    wait_run
    # It had finished: the kill came too late (a rank ending its process after the run's last line
    # may still die of it: the run is complete and saved all the same).
    [ "$rc" -eq 0 ] || [ "$(completed "$dir")" -gt "$completed_before" ] && break
    sleep 0.2  # mpirun's clean-up of the other ranks
    # Inside the checkpoint protocol: a rank's temporary file left, or a generation's files without
    # its marker (renamed, not yet marked complete).
    newest_file=$(ls "$dir" | sed -n 's/^checkpoint_\([0-9]*\)_r[0-9]*\.bin$/\1/p' | sort -n | tail -1)
    newest_marker=$(ls "$dir" | sed -n 's/^checkpoint_\([0-9]*\)\.complete$/\1/p' | sort -n | tail -1)
    if ls "$dir"/*.tmp >/dev/null 2>&1 || [ "${newest_file:-0}" -gt "${newest_marker:-0}" ]; then
      in_write=$((in_write + 1))
    fi
    if [ "$signal" = TERM ] && [ "$ranks" -eq 1 ] && [ "$rc" -ne 143 ]; then fail "$dir: SIGTERM exit status $rc"; fi
    done_kills=$((done_kills + 1)); total=$((total + 1))
  done
  for f in reference/checkpoint_${steps}_r*.bin; do
    cmp -s "$f" "$dir/$(basename "$f")" || fail "$dir: $(basename "$f") differs from the uninterrupted run"
  done
  [ "$(strip_wall reference/diagnostics.csv)" = "$(strip_wall "$dir/diagnostics.csv")" ] ||
    fail "$dir: diagnostics.csv differs from the uninterrupted run"
  if [ "$signal" = TERM ]; then
    stops=$(grep -c "stopped   by SIGTERM" "$dir.log")
    [ "$stops" -eq "$done_kills" ] || fail "$dir: $done_kills SIGTERMs but $stops 'stopped by SIGTERM' lines"
  fi
  rm -rf "$dir" "$dir.log"
done
hangs=""
[ "$launcher_hangs" -gt 0 ] && hangs="; mpirun hung after its ranks had ended $launcher_hangs time(s) and was ended"
echo "SIG$signal on $ranks rank(s): $total kills in $episodes runs ($in_write inside a checkpoint write); every restarted run ended bitwise equal to the uninterrupted one$hangs"
