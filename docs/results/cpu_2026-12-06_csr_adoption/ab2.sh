#!/usr/bin/env bash
# Start-up of 10⁶ hex cells of cavity-3d on the CPU backend, the build before and after, alternated:
# the momentum operator's part and the start-up line.
old=$1 new=$2 rounds=${3:-6}
for r in $(seq 1 $rounds); do
  for b in old new; do
    sleep ${IDLE:-0}; bin=$old; [[ $b == new ]] && bin=$new
    $bin run cavity-3d --set 'mesh.cells=[100,100,100]' --set run.max_steps=1 \
      --set numerics.poisson_tolerance=0.1 --set 'output.fields=[]' --set output.checkpoint_interval=0 \
      --set "output.directory=\"/tmp/ab/out_$b\"" > run_$b.txt 2>&1
    echo "$r $b $(date -u +%H:%M:%S) momentum $(grep -E 'momentum operator' run_$b.txt | awk '{print $3}') upload $(grep -E '^  operators \(upload\)' run_$b.txt | awk '{print $3}') | $(grep -E '^  start-up' run_$b.txt | sed 's/  start-up //')"
  done
done
