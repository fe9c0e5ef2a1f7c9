#!/usr/bin/env bash
# On a lent one-GPU machine, from the repository root: the CUDA backend on the operators stored as
# values on another's structure (G_d, |M|, the viscous rate) and the diagnostics without ∇u arrays:
# the CUDA tests (the "[memory]" cases compare the estimate with the set-up's allocations), the CPU
# and CUDA backends over 100 steps of four cases, and the start-up lines ("device memory", "fits on")
# and step times of cavity-3d 128³ and the LES case (Taylor–Green WALE on 80³ × 6 tets).
# Usage: bash docs/results/h200_2026-12-06_shared_structure/verify.sh OUT
set -uo pipefail
out=${1:?usage: verify.sh OUT}
build=build/gpu
budget=570
start=$SECONDS
mkdir -p "$out"
tools/gpu/build.sh "$build" miniapp cuda_kernels_test >"$out/build.txt" 2>&1
echo "build: rc $? in $((SECONDS - start)) s" >>"$out/build.txt"
source tools/gpu/runtime.sh
step cuda_tests 150 "$build/tests/cuda/cuda_kernels_test"
compare() {  # name, case, settings...
  local name=$1 case=$2
  shift 2
  for backend in cpu cuda; do
    step "${name}_$backend" 100 "$bin" run "$case" --backend "$backend" --set run.max_steps=100 \
      --set 'output.fields=[]' --set output.checkpoint_interval=0 \
      --set "output.directory=\"/tmp/cmp_${name}_$backend\"" "$@"
  done
  python3 - "$name" <<'PY' >>"$out/compare.txt"
import csv, sys
name = sys.argv[1]
rows = {b: list(csv.DictReader(open(f"/tmp/cmp_{name}_{b}/diagnostics.csv"))) for b in ("cpu", "cuda")}
worst = {}
for a, b in zip(rows["cpu"], rows["cuda"]):
    for k, v in a.items():
        try: x, y = float(v), float(b[k])
        except ValueError: continue
        d = abs(x - y) / max(abs(x), abs(y), 1e-300)
        worst[k] = max(worst.get(k, 0.0), d)
print(f"{name}: {len(rows['cpu'])} / {len(rows['cuda'])} rows; largest relative difference per column:")
for k, d in worst.items(): print(f"  {k:24s} {d:.2e}")
PY
}
compare tg48_wale taylor-green-3d --set 'physics.les="wale"' --set 'mesh.cells=[48,48,48]'
compare cavity3d_tet cavity-3d --set 'mesh.generator="tet"' --set 'mesh.cells=[20,20,20]'
compare channel channel
compare cylinder cylinder
timed() {  # name, case, settings...
  local name=$1 case=$2
  shift 2
  step "$name" 150 "$bin" run "$case" --backend cuda --set 'output.fields=[]' \
    --set output.checkpoint_interval=0 --set "output.directory=\"/tmp/$name\"" "$@"
}
timed cavity3d_128 cavity-3d --set 'mesh.cells=[128,128,128]' --set run.max_steps=100
timed les_tet80 taylor-green-3d --set 'physics.les="wale"' --set 'mesh.generator="tet"' \
  --set 'mesh.cells=[80,80,80]' --set run.max_steps=100
grep -h -E "device memory|fits on|start-up|summary|ms/step|ms per step" "$out"/cavity3d_128.txt "$out"/les_tet80.txt >"$out/room.txt"
