"""Cylinder in cross-flow: Strouhal number (at Re 100 from the lift's upward crossings of its mean, at
Re 3900 from the peak of the lift's spectrum), mean drag and lift amplitude from the case's averaging
start (statistics.start_time) to the end, from the forces observer's forces_cylinder.csv
(docs/statistics.md), and at Re 3900 the recirculation length from the wake_<k> probes' probes.csv
(wake.py: the mean u on the wake's centreline, averaged over the span, with its standard error from
batch means). A run without them has no numbers here
(the kinetic energy oscillates at the shedding frequency and at twice it while the wake grows, too
ambiguous to stand in for the lift)."""
import os

from . import data, series, wake
from .compare import Comparison

# How each case's Strouhal number is taken from its lift: the laminar wake's is a clean periodic signal,
# whose crossings of the mean give the finer figure; the turbulent wake's wanders and ripples, and its
# crossings count the ripples, so its frequency is the spectrum's peak.
STROUHAL = {"cylinder": series.frequency, "cylinder-3900": series.spectral_frequency}

TARGETS = {  # reference ranges and tolerances of issue 20
    "cylinder": {"St": (0.164, 0.165, 0.02), "mean Cd": (1.32, 1.33, 0.02), "Cl amplitude": (0.32, 0.33, 0.05)},
    "cylinder-3900": {"St": (0.208, 0.215, 0.05), "mean Cd": (0.99, 1.04, 0.10), "Lr/D": (1.51, 1.51, 0.15)},
}
WINDOW = 0.4  # without statistics.start_time: the last 40 % of the run
HISTORY_WINDOW = 20.0  # time units per row of a Re-3900 wake's history (four or so shedding periods)
HISTORY_X = 1.6  # the wake probes' x (in D from the centre) whose spanwise correlation the history shows


def window_start(run, t):
    """The case's statistics.start_time (shedding periodic, or statistically steady, by then), else the
    start of the run's last 40 %."""
    start = data.case_settings(run.case, run.overrides).get("statistics", {}).get("start_time")
    return start if start is not None and start < t[-1] else t[-1] - WINDOW * (t[-1] - t[0])


def _window(start, t, *ys):
    keep = [i for i, x in enumerate(t) if x >= start]
    return [t[i] for i in keep], *[[y[i] for i in keep] for y in ys]


def analyse(run, out):
    """(comparison rows, the forces file or None, the wake history: `history`'s text), each file read once."""
    targets = TARGETS[run.case]
    forces_file = data.statistics_file(out, "forces_cylinder.csv")
    values, note, forces = {}, "no forces_cylinder.csv: the run had no [forces.cylinder]", None
    if forces_file:
        forces = data.read_csv_columns(forces_file)
        t, cd, cl = _window(window_start(run, forces["time"]), forces["time"], forces["cd"], forces["cl"])
        values["St"] = STROUHAL[run.case](t, cl)  # U = D = 1
        values["mean Cd"] = sum(cd) / len(cd)
        values["Cl amplitude"] = (max(cl) - min(cl)) / 2
        note = f"t = {t[0]:.0f}–{t[-1]:.0f}, {os.path.basename(forces_file)}"
    notes = {q: note for q in targets}
    probes = data.statistics_file(out, "probes.csv")
    wake_history = ""
    if "Lr/D" in targets and probes:
        t, lines = wake.read_probes(run, probes)
        lr = recirculation_length(run, t, lines)
        values["Lr/D"] = lr.value
        notes["Lr/D"] = (f"Lr/D {lr.text()}, t = {lr.window[0]:.0f}–{lr.window[1]:.0f}, "
                         f"{os.path.basename(probes)}")
        if forces:
            wake_history = history(run, forces, t, lines)
    rows = [Comparison(run.name, q, values.get(q), lo, hi, tol, notes[q]) for q, (lo, hi, tol) in targets.items()]
    return rows, forces_file, wake_history


def plot(run, out, forces_file, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(8, 3.6))
    if forces_file:
        f = data.read_csv_columns(forces_file)
        ax.plot(f["time"], f["cd"], label="C_d")
        ax.plot(f["time"], f["cl"], label="C_l")
        ax.set_ylabel("coefficient")
    else:
        d = data.read_diagnostics(os.path.join(out, "diagnostics.csv"))
        ax.plot(d["time"], d["kinetic_energy"], label="kinetic energy")
        ax.set_ylabel("E")
    ax.set_xlabel("t U/D")
    ax.legend(fontsize=8)
    ax.set_title(run.name)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def recirculation_length(run, t, lines):
    """Lr/D with its standard error (wake.WakeLength) from the case's averaging start to the end of the
    wake probes' rows (t, lines: wake.read_probes)."""
    return wake.recirculation_length(t, lines, window_start(run, t))


def _time_weighted(t, y, start, end):
    """(mean, r.m.s. about the mean) of y over [start, end], each row weighted by its spacing."""
    lo, w = wake.weights(t, start, end)
    mean, f = wake.fluctuations(w, y[lo:lo + len(w)])
    return mean, wake.weighted_mean(w, [v * v for v in f]) ** 0.5


def history(run, forces, t, lines):
    """Markdown: the Re-3900 wake's state in windows of HISTORY_WINDOW time units from the start, so that
    a reader sees when the wake turned three-dimensional and whether the averaging window is stationary:
    the mean C_d and the r.m.s. of C_l (`forces`, forces_cylinder.csv's columns), L_r/D with its
    standard error from 5 batch means, and the spanwise correlation of u at x = HISTORY_X
    (wake.spanwise_correlation: near 1 while the wake sheds two-dimensionally); (t, lines) are the wake
    probes (wake.read_probes). "" without wake probes or for a run shorter than one window."""
    if not lines:
        return ""
    x = min(lines, key=lambda p: abs(p - HISTORY_X))
    end = min(forces["time"][-1], t[-1])
    rows = [f"Wake history of `{run.name}` (windows of {HISTORY_WINDOW:g} time units; the spanwise correlation of u "
            f"at x = {x:.1f} D between the probe lines, each pair once):", "",
            "| t | mean C_d | C_l r.m.s. | L_r/D | spanwise correlation of u |", "| --- | ---: | ---: | ---: | ---: |"]
    a = 0.0
    while a + HISTORY_WINDOW <= end + 1e-9:
        b = a + HISTORY_WINDOW
        cd, _ = _time_weighted(forces["time"], forces["cd"], a, b)
        _, cl = _time_weighted(forces["time"], forces["cl"], a, b)
        lr = wake.recirculation_length(t, lines, a, b, batches=5)
        lr_text = "—" if lr.value is None else (f"{lr.value:.2f}" + (f" ± {lr.sigma:.2f}" if lr.sigma is not None else ""))
        corr = wake.spanwise_correlation(t, lines, x, a, b)
        rows.append(f"| {a:g}–{b:g} | {cd:.3f} | {cl:.3f} | {lr_text} | {'—' if corr is None else f'{corr:.2f}'} |")
        a = b
    return "\n".join(rows) if a > 0 else ""  # a run shorter than one window has none
