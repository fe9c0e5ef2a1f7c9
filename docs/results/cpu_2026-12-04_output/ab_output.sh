#!/usr/bin/env bash
# A/B of output costs at 10^6 hex (cavity-3d, 2 threads): VTK write, checkpoint write, restart read.
# usage: ab_output.sh OLD_BIN NEW_BIN ROUNDS OUTFILE
old=$1; new=$2; rounds=$3; out=$4
: > $out
common=(--set 'mesh.cells=[100,100,100]' --set numerics.poisson_tolerance=0.1 --set output.checkpoint_interval=0)
for r in $(seq 1 $rounds); do
  for which in old new; do
    bin=${!which}
    d=/tmp/ab/run_$which; rm -rf $d; mkdir -p $d; cd $d
    # one step: the initial VTK output, one at the end, and the final checkpoint
    line=$(OMP_NUM_THREADS=2 $bin run cavity-3d "${common[@]}" --set run.max_steps=1 2>&1 | grep '^summary')
    size=$(stat -c %s output/cavity-3d/cavity-3d_1_r0.vtu)
    # restart: read the checkpoint, one more step, no VTK, the final checkpoint

    rline=$(OMP_NUM_THREADS=2 $bin run cavity-3d "${common[@]}" --set run.max_steps=2 --set "output.fields=[]" --restart output/cavity-3d 2>&1 | grep -E "^summary|^restart")

    echo "round $r $which: $line | vtu bytes $size | restart: $rline" >> $out
  done
done
