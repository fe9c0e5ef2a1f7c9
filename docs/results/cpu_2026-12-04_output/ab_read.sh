#!/usr/bin/env bash
# The restart's read of one 10^6-hex checkpoint (112 MB), alternating two builds; nothing else runs
# (the checkpoint is already at run.max_steps).
old=$1; new=$2; rounds=$3; out=$4
d=/tmp/ab/read; rm -rf $d; mkdir -p $d; cd $d
common=(--set 'mesh.cells=[100,100,100]' --set numerics.poisson_tolerance=0.1 --set output.checkpoint_interval=0 --set 'output.fields=[]' --set run.max_steps=1)
OMP_NUM_THREADS=2 $new run cavity-3d "${common[@]}" > /dev/null 2>&1
: > $out
for r in $(seq 1 $rounds); do
  for which in old new; do
    bin=${!which}
    echo "round $r $which: $(OMP_NUM_THREADS=2 /usr/bin/time -f 'maxrss %M KB' $bin run cavity-3d "${common[@]}" --restart output/cavity-3d 2>&1 | grep -E '^restart   from|maxrss' | tr '\n' ' ')" >> $out
  done
done
