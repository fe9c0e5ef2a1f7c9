"""The FFT and the 3D PCG pressure paths on the same case (issue 20: they must agree within their
statistical uncertainty): each pair's time averages over the case's averaging window
(statistics.start_time to the end of the shorter run), with the standard error of each
(uncertainty.py), and whether the difference is within K standard errors of the difference; for the
cylinder, the recirculation length too, over the same window, with its standard error from batch means
of L_r (wake.py)."""
import math
import os

from . import data, wake
from .uncertainty import Agreement, agreement_table, common_window_agreement

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


def wake_lengths(runs, work, start):
    """The runs' L_r/D (wake.WakeLength) over their common window, from `start` (None: the later first
    row) to the end of the shorter run's probes; None where a run has no probes.csv."""
    found = []
    for r in runs:
        probes = data.statistics_file(os.path.join(work, r.name), "probes.csv")
        if not probes:
            return None
        found.append(wake.read_probes(r, probes))
    start = max(t[0] for t, _ in found) if start is None else start
    end = min(t[-1] for t, _ in found)
    return [wake.recirculation_length(t, lines, start, end) for t, lines in found]


def wake_row(labels, lengths):
    """The L_r/D row of a cylinder pair's table, or (None, the line that says why there is none)."""
    if all(x.sigma is not None for x in lengths):
        return Agreement("L_r/D", *[x.estimate() for x in lengths]), ""
    return None, "- L_r/D: not compared, " + "; ".join(f"{n}: {x.text()}" for n, x in zip(labels, lengths))


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
        lengths = wake_lengths(runs, work, start) if runs[0].case == "cylinder-3900" else None
        row, missing = wake_row((fft, pcg), lengths) if lengths else (None, "")
        rows += [row] if row else []
        if rows:
            text = agreement_table((fft, pcg), rows, K)
            found.append((f"FFT against PCG pressure: {fft}", text + (f"\n{missing}" if missing else "")))
    return found
