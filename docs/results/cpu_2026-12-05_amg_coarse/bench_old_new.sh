#!/bin/bash
# The channel's step before and after the grouped rows of the CPU batched SpMV, alternated: OLD and NEW
# are two builds' miniapp (here HEAD 951deb0 and the working tree); five rounds, one thread, the
# channel with AMG on its lowest block and as shipped (blocks chosen by timed solves).
# Usage: bench_old_new.sh OLD NEW
export OMP_NUM_THREADS=1
for round in 1 2 3 4 5; do
  for v in old new; do
    b=$1; [ $v = new ] && b=$2
    for cfg in amg1 shipped; do
      extra=(); [ $cfg = amg1 ] && extra=(--set 'numerics.poisson="fft"' --set numerics.fft_low_frequency_blocks=1)
      t=$("$b" bench step channel "${extra[@]}" --warmup 5 --steps 20 2>&1 | grep -E '^time per step')
      echo "$round $v $cfg: $t"
    done
  done
done
