#!/usr/bin/env bash
# Alternates the build before (old) and after (new) on cavity-3d at 10⁶ hex, CPU backend, 2 threads.
IDLE=${IDLE:-0}; ROUNDS=${ROUNDS:-6}
for r in $(seq 1 $ROUNDS); do for b in old new; do
  bin=/work/main/build/cpu/miniapp/miniapp; [ $b = old ] && bin=/tmp/oldtree/build/cpu/miniapp/miniapp
  sleep $IDLE
  $bin run cavity-3d --set 'mesh.cells=[100,100,100]' --set run.max_steps=1 --set numerics.poisson_tolerance=0.1 \
    --set 'output.fields=[]' --set output.checkpoint_interval=0 --set output.directory=/tmp/est/ab 2>&1 |
    grep -E "start-up|operators \(upload\)" | tr '\n' ' ' | sed "s/^/$b r$r: /"; echo
done; done
