#!/usr/bin/env bash
# On a lent one-GPU machine, AMG against AIP-1 (docs/amg.md), in order of importance, each step skipped
# once the budget is spent: the AMG CUDA test (CPU against CUDA); `miniapp poisson` to 1e-8 on closed
# hex and tet boxes (walls all round: the singular pure-Neumann problem) of 10⁵, 10⁶ and 3·10⁶ cells
# with set-up time, iterations and solve time; the LES step (WALE, Taylor–Green on PCG) on 3.1·10⁶
# tets; cavity-3d at 128³ in the time loop (20 steps); then 10⁷ and 3·10⁷ cells.
# `MINIAPP_AMG_PART=choices` times AMG's choices instead (docs/amg.md, chosen on the CPU by bytes):
# degree 1 against 2, double against float matrices, on 3·10⁶ hex and tet cells, and double against float
# in the time loop (the LES step on 3.1·10⁶ tets, cavity-3d at 128³).
# `MINIAPP_AMG_PART=setup` times the hierarchy's set-up instead: the "set-up stages" lines of `miniapp
# poisson` (checks, aggregation, λmax, prolongation, Galerkin, coarse inverse, sELL conversion, upload)
# on 3·10⁶ hex and tet cells and 10⁷ tets with all the host's cores, and on 3·10⁶ tets with one.
# `MINIAPP_AMG_PART=threshold` times the time loop with AIP-1 and with AMG on the 2D cavity at 64²–256²
# and on cavity-3d at 24³–40³, for the thresholds of numerics.preconditioner = "auto".
# `MINIAPP_AMG_PART=prism` runs `miniapp poisson` with AIP-1 and AMG on closed prism boxes (extruded
# triangles) of 10⁵, 10⁶, 3·10⁶, 10⁷ and 3·10⁷ cells.
# `MINIAPP_AMG_PART=timeloop` times the time loop with AIP-1 and with AMG, alternated twice on the same
# machine: the LES step on 3.1·10⁶ tets, cavity-3d at 128³, 144³ (3·10⁶) and 215³ (10⁷) hexahedra.
# Usage: MINIAPP_GPU_BUILD=BUILD [MINIAPP_GPU_BUDGET=470] [MINIAPP_AMG_PART=choices|setup|threshold|prism|timeloop] tools/gpu/amg.sh OUT_DIR
# BUILD holds miniapp and tests/solvers/amg_test, built by tools/gpu/build.sh (whose .debs/ must hold
# libeigen3-dev).
set -uo pipefail
out=${1:?usage: tools/gpu/amg.sh OUT_DIR}
build=${MINIAPP_GPU_BUILD:-/tmp/mb}
budget=${MINIAPP_GPU_BUDGET:-470}
source tools/gpu/runtime.sh  # also: bin, $out/device.txt and an empty $out/steps.txt
poisson() {  # name, mesh, N (N³ hexahedra or 6 N³ tetrahedra), limit in s
  step "poisson_$1" "$4" "$bin" poisson --backend cuda --mesh "$2" --cells "$3,$3,$3" --periodic none \
    --preconditioner aip1,amg --json "$out/poisson_$1.json"
}
les_step() {  # preconditioner: the LES Taylor–Green step on 80³ × 6 tets (3.1·10⁶)
  step "les_step_tet80_$1" 90 "$bin" bench step taylor-green-3d --set 'physics.les="wale"' \
    --set 'mesh.generator="tet"' --set 'mesh.cells=[80,80,80]' --set 'numerics.poisson="pcg"' \
    --set "numerics.preconditioner=\"$1\"" --backend cuda --steps 5 --json "$out/les_step_tet80_$1.json"
}
cavity() {  # preconditioner: cavity-3d at 128³, 20 steps from rest
  step "cavity3d_128_$1" 90 "$bin" run cavity-3d --backend cuda --set 'mesh.cells=[128,128,128]' \
    --set run.max_steps=20 --set 'output.fields=[]' --set "numerics.preconditioner=\"$1\"" \
    --set "output.directory=\"/tmp/cavity3d_128_$1\""
}
if [[ ${MINIAPP_AMG_PART:-} == setup ]]; then
  for mesh in "tet 80" "hex 144" "tet 119"; do
    set -- $mesh
    step "setup_$1_$2" 150 "$bin" poisson --backend cuda --mesh "$1" --cells "$2,$2,$2" --periodic none \
      --preconditioner amg --json "$out/setup_$1_$2.json"
  done
  step setup_tet_80_one_thread 150 env OMP_NUM_THREADS=1 "$bin" poisson --backend cuda --mesh tet --cells 80,80,80 \
    --periodic none --preconditioner amg --json "$out/setup_tet_80_one_thread.json"
  grep -H -A9 "set-up stages" "$out"/setup_*.txt >"$out/setup_stages.txt"
  exit 0
fi
if [[ ${MINIAPP_AMG_PART:-} == prism ]]; then
  # 2 N² × N prisms: 10⁵, 10⁶, 3·10⁶, 10⁷, 3·10⁷.
  for size in "37 30" "79 45" "115 70" "171 150" "247 300"; do
    set -- $size
    poisson "prism_$1" prism "$1" "$2"
  done
  exit 0
fi
if [[ ${MINIAPP_AMG_PART:-} == timeloop ]]; then
  for round in 1 2; do
    for p in aip1 amg; do
      step "les_step_tet80_${p}_$round" 60 "$bin" bench step taylor-green-3d --set 'physics.les="wale"' \
        --set 'mesh.generator="tet"' --set 'mesh.cells=[80,80,80]' --set 'numerics.poisson="pcg"' \
        --set "numerics.preconditioner=\"$p\"" --backend cuda --warmup 5 --steps 10 \
        --json "$out/les_step_tet80_${p}_$round.json"
      for size in "128 60" "144 60" "215 120"; do
        set -- $size
        step "cavity3d_$1_${p}_$round" "$2" "$bin" bench step cavity-3d --set "mesh.cells=[$1,$1,$1]" \
          --set "numerics.preconditioner=\"$p\"" --backend cuda --warmup 5 --steps 10 \
          --json "$out/cavity3d_$1_${p}_$round.json"
      done
    done
  done
  # The solve's time in the loop: the step's less the other sub-steps' kernel time (profiled), which is
  # the same with either preconditioner; from the runs' --json.
  python3 - "$out" >"$out/timeloop.md" <<'PY'
import glob, json, os, statistics, sys
runs = {}
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*_[12].json"))):
    run = json.load(open(path))
    other = sum(kind["profiled_seconds"] for phase in run["phases"] if phase["phase"] != "2.2 Poisson solve"
                for name, kind in phase.items() if name != "phase") / run["steps"]
    case, preconditioner, _ = os.path.basename(path)[:-5].rsplit("_", 2)
    runs.setdefault(case, {}).setdefault(preconditioner, []).append(
        (1e3 * run["step_seconds"], 1e3 * other, run["pcg_iterations_per_step"]))
print("| case | AIP-1 step, iterations | AMG step, iterations | step ratio | solve AIP-1 / AMG | solve ratio |")
print("| --- | ---: | ---: | ---: | ---: | ---: |")
for case, by in runs.items():
    if "aip1" not in by or "amg" not in by:
        continue
    other = statistics.mean(r[1] for r in by["aip1"] + by["amg"])
    step = {p: statistics.mean(r[0] for r in by[p]) for p in ("aip1", "amg")}
    spread = {p: f"{min(r[0] for r in by[p]):.2f}–{max(r[0] for r in by[p]):.2f} ms, {by[p][0][2]:.1f}" for p in by}
    print(f"| {case} | {spread['aip1']} | {spread['amg']} | {step['aip1'] / step['amg']:.2f} | "
          f"{step['aip1'] - other:.1f} / {step['amg'] - other:.2f} ms | {(step['aip1'] - other) / (step['amg'] - other):.1f} |")
PY
  exit 0
fi
step amg_cuda_test 60 "$build/tests/solvers/amg_test" "[cuda]"
if [[ ${MINIAPP_AMG_PART:-} == threshold ]]; then
  # numerics.preconditioner = "auto"'s thresholds (miniapp/case/preconditioner_choice.hpp): the time loop
  # with AIP-1 and with AMG on the 2D cavity of the CPU peer pairing (Re 1000, its fixed dt) at 64²,
  # 128² and 256², and on cavity-3d at 24³, 32³ and 40³ (20 warm-up steps, 20 timed).
  for n in 64 128 256; do
    for p in aip1 amg; do
      step "threshold_cavity2d_${n}_$p" 60 "$bin" bench step cavity --backend cuda --set physics.re=1000 \
        --set "mesh.cells=[$n,$n,1]" --set "mesh.length=[1,1,$(python3 -c "print(1 / $n)")]" \
        --set "numerics.dt=$(python3 -c "print(0.5 / $n)")" --set "numerics.preconditioner=\"$p\"" \
        --warmup 20 --steps 20 --json "$out/threshold_cavity2d_${n}_$p.json"
    done
  done
  for n in 24 32 40; do
    for p in aip1 amg; do
      step "threshold_cavity3d_${n}_$p" 60 "$bin" bench step cavity-3d --backend cuda --set "mesh.cells=[$n,$n,$n]" \
        --set "numerics.preconditioner=\"$p\"" --warmup 20 --steps 20 --json "$out/threshold_cavity3d_${n}_$p.json"
    done
  done
  grep -H "time per step\|PCG iterations per step" "$out"/threshold_*.txt >"$out/threshold.txt"
  exit 0
fi
if [[ ${MINIAPP_AMG_PART:-} == choices ]]; then
  for mesh in "hex 144" "tet 80"; do
    set -- $mesh
    for choice in "degree1" "degree2 --amg-degree 2" "float --amg-float" "degree2_float --amg-degree 2 --amg-float"; do
      name=${choice%% *} options=${choice#"$name"}
      # shellcheck disable=SC2086 # the options split into words on purpose
      step "choice_$1_$name" 70 "$bin" poisson --backend cuda --mesh "$1" --cells "$2,$2,$2" --periodic none \
        --preconditioner amg $options --json "$out/choice_$1_$name.json"
    done
  done
  # The time loop with double and with float matrices, alternated twice (machines drift): the LES step
  # on 3.1·10⁶ tets and cavity-3d at 128³ (2.1·10⁶ hexahedra).
  for round in 1 2; do
    for storage in double float; do
      step "les_step_tet80_amg_${storage}_$round" 90 "$bin" bench step taylor-green-3d --set 'physics.les="wale"' \
        --set 'mesh.generator="tet"' --set 'mesh.cells=[80,80,80]' --set 'numerics.poisson="pcg"' \
        --set 'numerics.preconditioner="amg"' --set "numerics.amg_storage=\"$storage\"" --backend cuda \
        --warmup 10 --steps 20 --json "$out/les_step_tet80_amg_${storage}_$round.json"
      step "cavity3d_128_amg_${storage}_$round" 90 "$bin" bench step cavity-3d --set 'mesh.cells=[128,128,128]' \
        --set 'numerics.preconditioner="amg"' --set "numerics.amg_storage=\"$storage\"" --backend cuda \
        --warmup 10 --steps 20 --json "$out/cavity3d_128_amg_${storage}_$round.json"
    done
  done
  exit 0
fi
poisson hex_1e5 hex 46 30
poisson tet_1e5 tet 26 30
poisson hex_1e6 hex 100 45
poisson tet_1e6 tet 55 45
poisson hex_3e6 hex 144 70
poisson tet_3e6 tet 80 70
les_step amg
les_step aip1
cavity amg
cavity aip1
poisson hex_1e7 hex 215 150
poisson tet_1e7 tet 119 150
poisson hex_3e7 hex 311 300
