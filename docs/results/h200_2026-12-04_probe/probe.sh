#!/usr/bin/env bash
# The machine's runtime and how fast it backs fresh memory; then the 10^6-cell start-up.
set -uo pipefail
out=${1:?OUT}
{ uname -a; cat /sys/kernel/mm/transparent_hugepage/enabled 2>&1; nproc; grep -m1 "model name" /proc/cpuinfo; free -g; } > $out/machine.txt
gcc -O2 -fopenmp .gl/touch.c -o /tmp/touch
for t in 1 4 16; do OMP_NUM_THREADS=$t /tmp/touch 2500 >> $out/touch.txt; done
for t in 16 1; do OMP_NUM_THREADS=$t /usr/bin/time -f "  process: user %U sys %S wall %e" /tmp/touch 2500 >> $out/touch.txt 2>&1; done
tools/gpu/build.sh build/gpu miniapp > $out/build.txt 2>&1; echo "build rc $?" >> $out/build.txt
export OMP_NUM_THREADS=$(nproc)
for r in 1 2 3; do
  for g in hex:100 tet:55; do
    gen=${g%%:*}; edge=${g##*:}
    /usr/bin/time -f "  process: user %U sys %S wall %e maxrss %M KB" timeout 60 build/gpu/miniapp/miniapp run cavity-3d --backend cuda --quiet --set "mesh.generator=\"$gen\"" --set "mesh.cells=[$edge,$edge,$edge]" \
      --set run.max_steps=1 --set numerics.poisson_tolerance=0.1 --set 'output.fields=[]' --set 'output.directory="/tmp/su"' > /tmp/su.txt 2>&1
    echo "$gen round $r: $(grep -E '^  (start-up|mesh |operators|AMG hier|pressure solver|process)' /tmp/su.txt | tr -s ' ' | tr '\n' '|')" >> $out/startup.txt
  done
done
