#!/usr/bin/env bash
# Taylor-Green at Re 1600 on 64³ with each LES model at its case-file constant and at others, and at
# smaller CFL numbers, on the CPU backend (one thread per run, two runs at a time): the peak of −dE/dt
# against the 512³ DNS, the kinetic energy's deficit against it at t = 6, 8 and 10, which show where
# the models' dissipation goes, and the budget's viscous, model and numerical shares of −dE/dt at the
# peak (docs/validation.md, *What the misses say*). About 25 s a run at CFL 0.5 on the 2-core
# development VM, four times as long at 0.125.
# Usage: tools/cpu/tg64-study.sh MINIAPP OUT_DIR
set -euo pipefail
miniapp=${1:?usage: tools/cpu/tg64-study.sh MINIAPP OUT_DIR}
out=${2:?usage: tools/cpu/tg64-study.sh MINIAPP OUT_DIR}
root=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$out"
# name model constant cfl ("-": the case file's)
runs=("none none - -" "smagorinsky-0.17 smagorinsky - -" "smagorinsky-0.10 smagorinsky 0.1 -"
      "smagorinsky-0.05 smagorinsky 0.05 -" "wale-0.325 wale - -" "wale-0.50 wale 0.5 -" "wale-0.20 wale 0.2 -"
      "vreman-0.07 vreman - -" "vreman-0.025 vreman 0.025 -" "sigma-1.5 sigma - -" "sigma-1.35 sigma 1.35 -"
      "none-cfl0.25 none - 0.25" "none-cfl0.125 none - 0.125" "smagorinsky-0.17-cfl0.125 smagorinsky - 0.125"
      "wale-0.325-cfl0.125 wale - 0.125")
run() {
  local name=$1 model=$2 constant=${3#-} cfl=${4#-}
  OMP_NUM_THREADS=1 MINIAPP_CASES_DIR="$root/cases" "$miniapp" run taylor-green-3d --set run.end_time=14 \
    --set 'output.fields=[]' --set output.checkpoint_interval=0 --set "physics.les=\"$model\"" \
    ${constant:+--set physics.les_constant=$constant} ${cfl:+--set numerics.cfl=$cfl} \
    --set "output.directory=\"$out/$name\"" >"$out/$name.log" 2>&1
}
for ((i = 0; i < ${#runs[@]}; i += 2)); do
  run ${runs[i]} &
  ((i + 1 < ${#runs[@]})) && run ${runs[i + 1]} &
  wait
done
python3 "$root/tools/cpu/tg_study_table.py" "$out" "${runs[@]%% *}"
