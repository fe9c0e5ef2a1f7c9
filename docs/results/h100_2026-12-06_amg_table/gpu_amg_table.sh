#!/usr/bin/env bash
# Throwaway: amg.md's first table again (AIP-1 and AMG, default float matrices, device set-up).
set -uo pipefail
out=${OUT:-/tmp/out}; mkdir -p "$out"
start=$SECONDS
build=build/gpu; budget=470; source tools/gpu/runtime.sh; rm -f "$out/steps.txt"
git log -1 --format='%H %cI' >> "$out/device.txt" 2>/dev/null; date -u >> "$out/device.txt"
tools/gpu/build.sh build/gpu miniapp stability_radius_cost > "$out/build.txt" 2>&1 || { tail -40 "$out/build.txt"; exit 1; }
echo "build $((SECONDS-start)) s" >> "$out/device.txt"
: > "$out/sweep.txt"
{ find build/gpu -name stability_radius_cost -type f -exec {} \; ; lscpu | grep "Model name"; } > "$out/host_search.txt" 2>&1
timeout 120 "$bin" bench step cylinder --backend cuda --warmup 10 --steps 50 > "$out/cylinder_step.txt" 2>&1
for round in 1; do
  for m in "hex 46" "tet 26" "hex 100" "tet 55" "hex 144" "tet 80" "hex 215" "tet 119"; do
    set -- $m
    if (( SECONDS - start > 400 )); then echo "skip $1 $2 r$round" >> "$out/sweep.txt"; continue; fi
    echo "== $1 $2 round $round $(date -u +%T)" >> "$out/sweep.txt"
    timeout 120 "$bin" poisson --backend cuda --mesh "$1" --cells "$2,$2,$2" --periodic none \
      --preconditioner aip1,amg --amg-float > /tmp/p.txt 2>&1; echo "rc $?" >> "$out/sweep.txt"
    grep -E "^(mesh|matrix|preconditioner|aip1|amg) |levels, rows|Galerkin|upload " /tmp/p.txt >> "$out/sweep.txt"
  done
done
echo "total $((SECONDS-start)) s" >> "$out/device.txt"
cat "$out/device.txt"; grep -E "^==|^aip1|^amg" "$out/sweep.txt"
