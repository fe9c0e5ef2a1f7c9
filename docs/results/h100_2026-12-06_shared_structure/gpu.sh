#!/usr/bin/env bash
# G_d and |M| on the structure of M Γ_d and M, LES diagnostics on the step's gradient: the CUDA tests,
# the CPU and CUDA backends over 100 steps of Taylor–Green LES, and the device memory of the LES case
# and of cavity-3d (hex, tets). Usage (repository root, GPU machine): OUT=DIR bash this-file
set -uo pipefail
out=${OUT:-/tmp/out}; mkdir -p "$out"; start=$SECONDS
build=build/gpu; budget=580; source tools/gpu/runtime.sh; rm -f "$out/steps.txt"
git log -1 --format='%H %cI' >> "$out/device.txt" 2>/dev/null; date -u >> "$out/device.txt"
tools/gpu/build.sh build/gpu miniapp cuda_kernels_test solvers_test time_test > "$out/build.txt" 2>&1 ||
  { tail -40 "$out/build.txt"; exit 1; }
echo "build $((SECONDS-start)) s" >> "$out/device.txt"
{
  timeout 150 build/gpu/tests/cuda/cuda_kernels_test 2>&1 | tail -4; echo "cuda_kernels_test rc ${PIPESTATUS[0]}"
  timeout 120 build/gpu/tests/solvers/solvers_test "[cuda]" 2>&1 | tail -3; echo "solvers_test [cuda] rc ${PIPESTATUS[0]}"
  timeout 60 build/gpu/tests/time/time_test "[operators],[time-step]" 2>&1 | tail -3; echo "time_test rc ${PIPESTATUS[0]}"
} > "$out/cuda_tests.txt" 2>&1
echo "tests $((SECONDS-start)) s" >> "$out/device.txt"
for backend in cpu cuda; do
  timeout 120 "$bin" run taylor-green-3d --backend "$backend" --quiet --set run.max_steps=100 --set 'output.fields=[]' \
    --set physics.les=wale --set 'mesh.cells=[48,48,48]' --set "output.directory=/tmp/tg_$backend" > /dev/null 2>&1
  echo "$backend rc $?" >> "$out/device.txt"
done
python3 - "$out/compare.txt" <<'PY'
import csv, sys
rows = {b: list(csv.DictReader(open(f"/tmp/tg_{b}/diagnostics.csv"))) for b in ("cpu", "cuda")}
with open(sys.argv[1], "w") as f:
    print("Taylor-Green 48^3 WALE, 100 steps, CPU against CUDA: largest relative difference per column", file=f)
    for k in rows["cpu"][0]:
        try:
            d = max(abs(float(a[k]) - float(b[k])) / max(abs(float(a[k])), 1e-300) for a, b in zip(rows["cpu"], rows["cuda"]))
        except ValueError:
            continue
        print(f"{k:28s} {d:.2e}", file=f)
    print("steps", len(rows["cpu"]), len(rows["cuda"]), file=f)
PY
echo "compare $((SECONDS-start)) s" >> "$out/device.txt"
run3() {  # name, case, overrides...
  local name=$1 case=$2; shift 2
  timeout 120 "$bin" run "$case" --backend cuda --set run.max_steps=3 --set 'output.fields=[]' \
    --set output.checkpoint_interval=0 --set "output.directory=/tmp/m_$name" "$@" > "$out/$name.txt" 2>&1
  echo "$name rc $? $((SECONDS-start)) s" >> "$out/device.txt"
}
run3 les_tet80 taylor-green-3d --set 'physics.les="wale"' --set 'mesh.generator="tet"' --set 'mesh.cells=[80,80,80]' \
  --set 'numerics.poisson="pcg"'
run3 cavity_hex100 cavity-3d --set 'mesh.cells=[100,100,100]'
run3 cavity_tet55 cavity-3d --set 'mesh.generator="tet"' --set 'mesh.cells=[55,55,55]'
cat "$out/device.txt" "$out/cuda_tests.txt" "$out/compare.txt"; grep -h "device memory\|fits on\|start-up\|ms/step" "$out"/les_tet80.txt "$out"/cavity_*.txt
