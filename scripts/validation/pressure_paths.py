"""The FFT and the 3D PCG pressure paths on the same case (issue 20: they must agree within their
statistical uncertainty): each pair's time averages over the case's averaging window
(statistics.start_time to the end of the shorter run), with the standard error of each
(uncertainty.py), and whether the difference is within K standard errors of the difference."""
import math
import os

from . import data
from .uncertainty import agreement_table, common_window_agreement

PAIRS = (("channel", "channel-pcg"), ("cylinder-3900", "cylinder-3900-pcg"),  # (FFT run, PCG run)
         ("minimal-channel-fft", "minimal-channel-pcg"), ("coarse-cylinder-3900-fft", "coarse-cylinder-3900-pcg"))
K = 2.0


def _viscosity(settings):
    physics = settings["physics"]
    if "nu" in physics:
        return physics["nu"]
    return physics.get("reference_velocity", 1) * physics.get("reference_length", 1) / physics["re"]


def signals(run, out):
    """{quantity: (t, y)}: the channel's Re_τ from the wall shear of both walls and its r.m.s. velocity
    √(2E/V); the cylinder's C_d and C_l² (forces_cylinder.csv)."""
    settings = data.case_settings(run.case, run.overrides)
    if run.case == "channel":
        d = data.read_diagnostics(os.path.join(out, "diagnostics.csv"))
        nu = _viscosity(settings)
        length = settings["mesh"]["length"]
        volume = length[0] * length[1] * length[2]
        half_height = length[1] / 2
        # The wall columns are nan on the rows between output.enstrophy_divergence_interval's.
        walls = [(t, 0.5 * (a + b) * half_height / nu) for t, a, b in zip(d["time"], d["utau_ymin"], d["utau_ymax"])
                 if not math.isnan(a + b)]
        rms = [(2 * e / volume) ** 0.5 for e in d["kinetic_energy"]]
        return {"Re_τ (wall shear)": ([t for t, _ in walls], [r for _, r in walls]), "√(2E/V)": (d["time"], rms)}
    forces = data.statistics_file(out, "forces_cylinder.csv")
    if not forces:
        return {}
    f = data.read_csv_columns(forces)
    return {"mean C_d": (f["time"], f["cd"]), "mean C_l²": (f["time"], [c * c for c in f["cl"]])}


def analyse(selected, work):
    """(title, text) per pair of which both runs are in `selected`."""
    by_name = {r.name: r for r in selected}
    found = []
    for fft, pcg in PAIRS:
        if fft not in by_name or pcg not in by_name:
            continue
        runs = (by_name[fft], by_name[pcg])
        start = data.case_settings(runs[0].case, runs[0].overrides).get("statistics", {}).get("start_time")
        series = [signals(r, os.path.join(work, r.name)) for r in runs]
        rows = [common_window_agreement(q, series[0][q], series[1][q], start) for q in series[0] if q in series[1]]
        if rows:
            found.append((f"FFT against PCG pressure: {fft}", agreement_table((fft, pcg), rows, K)))
    return found
