"""The table of a Taylor-Green study's runs (tools/cpu/tg64-study.sh, tg128-timestep.sh): per run folder, the
peak of −dE/dt against the 512³ DNS and its time, the kinetic energy against the DNS at t = 6, 8 and 10,
and the budget's viscous, model and numerical shares of −dE/dt at the peak.
Usage: python3 tools/cpu/tg_study_table.py OUT_DIR RUN..."""
import bisect, os, sys
out, names = sys.argv[1], sys.argv[2:]
root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
sys.path.insert(0, os.path.join(root, "scripts"))
from validation import data, series, taylor_green
t_ref, e_ref, d_ref = data.taylor_green_reference()
_, ref_peak = series.peak(t_ref, d_ref)
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
