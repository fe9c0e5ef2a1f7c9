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
python3 - "$root" "$out" "${runs[@]%% *}" <<'PY'
import bisect, os, sys
root, out, names = sys.argv[1], sys.argv[2], sys.argv[3:]
sys.path.insert(0, os.path.join(root, "scripts"))
from validation import data, series, taylor_green
t_ref, e_ref, d_ref = data.taylor_green_reference()
ref_time, ref_peak = series.peak(t_ref, d_ref)
print("| run | peak −dE/dt | against the DNS | its time | E against the DNS at t = 6 / 8 / 10 | viscous / model / numerical at the peak |")
print("| --- | ---: | ---: | ---: | ---: | ---: |")
for name in names:
    t, d = taylor_green.dissipation_curve(os.path.join(out, name))
    when, peak = series.peak(t, d)
    diag = data.read_diagnostics(os.path.join(out, name, "diagnostics.csv"))
    nearest = lambda at: min(range(len(diag["time"])), key=lambda k: abs(diag["time"][k] - at))
    deficits = []
    for i in map(nearest, (6, 8, 10)):
        e = diag["kinetic_energy"][i] / taylor_green.VOLUME
        deficits.append(f"{100 * (e / e_ref[bisect.bisect_left(t_ref, diag['time'][i])] - 1):+.1f} %")
    # The budget's row nearest the peak: its parts as shares of −dE/dt there.
    i = nearest(when)
    shares = [100 * diag[c][i] / diag["energy_decay_rate"][i]
              for c in ("viscous_dissipation", "model_dissipation", "numerical_dissipation")]
    print(f"| {name} | {peak:.5f} | {100 * (peak / ref_peak - 1):+.1f} % | {when:.2f} | {' / '.join(deficits)} | "
          f"{' / '.join(f'{x:.1f} %' for x in shares)} |")
PY
