#!/usr/bin/env bash
# On a lent one-GPU machine, from the repository root: the values laid out alone on another's
# structure (DeviceSell::with_values_of, the CUDA fill kernel writing no columns): the CUDA kernels'
# tests (the "[memory]" cases: the estimate against the set-up's allocations), the time suite's device
# operators on both backends and under compute-sanitizer's memcheck, and CPU against CUDA over 100
# steps of cavity-3d on tets and of the cylinder.
# Usage: bash docs/results/h100_2026-12-06_values_on_structure/check.sh OUT
set -uo pipefail
out=${1:?usage: check.sh OUT}
build=build/gpu
budget=500
start=$SECONDS
mkdir -p "$out"
tools/gpu/build.sh "$build" miniapp cuda_kernels_test time_test >"$out/build.txt" 2>&1
echo "build: rc $? in $((SECONDS - start)) s" >>"$out/build.txt"
source tools/gpu/runtime.sh
step cuda_kernels_test 90 "$build/tests/cuda/cuda_kernels_test"
step time_test 60 "$build/tests/time/time_test" "[operators]"
step memcheck_time_test 120 compute-sanitizer --tool memcheck "$build/tests/time/time_test" "[operators]"
for c in cavity3d_tet cylinder; do
  settings=(); [[ $c == cavity3d_tet ]] && settings=(--set 'mesh.generator="tet"' --set 'mesh.cells=[20,20,20]')
  name=${c%_tet}; name=${name/cavity3d/cavity-3d}
  for backend in cpu cuda; do
    step "${c}_$backend" 60 "$bin" run "$name" --backend "$backend" --set run.max_steps=100 --set 'output.fields=[]' \
      --set output.checkpoint_interval=0 --set "output.directory=\"/tmp/${c}_$backend\"" "${settings[@]}"
  done
  python3 - "$c" >>"$out/compare.txt" <<'PY'
import csv, sys
c = sys.argv[1]
a, b = (list(csv.DictReader(open(f"/tmp/{c}_{k}/diagnostics.csv"))) for k in ("cpu", "cuda"))
worst = max(abs(float(x["kinetic_energy"]) - float(y["kinetic_energy"])) / abs(float(x["kinetic_energy"])) for x, y in zip(a, b) if float(x["kinetic_energy"]))
same_it = all(x["poisson_iterations"] == y["poisson_iterations"] for x, y in zip(a, b))
print(f"{c}: {len(a)} / {len(b)} rows, kinetic energy largest relative difference {worst:.2e}, Poisson iterations identical: {same_it}")
PY
done
{ for f in "$out"/*_test.txt; do echo "$(basename "$f" .txt): $(tail -2 "$f" | tr -s '\n' ' ')"; done; grep "ERROR SUMMARY" "$out/memcheck_time_test.txt"; } >"$out/summary.txt"
