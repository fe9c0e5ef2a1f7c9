"""Turbulent channel at Re_τ 180: friction Reynolds number, mean velocity U⁺(y⁺) and the streamwise
variance against Moser, Kim & Mansour (1999). The profiles come from the statistics observer's
profile_y.csv when the run wrote one (docs/statistics.md), else from the plane averages of the last
checkpoint (one instant: its variances are estimates over one snapshot, not time averages)."""
import math
import os

from . import data, series
from .compare import Comparison


def _nodes(n, origin, length, beta):
    """The hex generator's node coordinates along one axis (tanh clustering, docs/case-files.md)."""
    if beta == 0:
        return [origin + length * i / n for i in range(n + 1)]
    return [origin + length * (1 + math.tanh(beta * (2 * i / n - 1)) / math.tanh(beta)) / 2 for i in range(n + 1)]


def checkpoint_profile(out, settings):
    """Plane averages over x and z of the last checkpoint: y, U, ⟨u'u'⟩ per layer of cells."""
    mesh = settings["mesh"]
    nx, ny, nz = mesh["cells"]
    y_nodes = _nodes(ny, mesh.get("origin", [0, 0, 0])[1], mesh["length"][1], mesh.get("stretch", [0, 0, 0])[1])
    _, time, arrays = data.checkpoint(out)
    mean, variance = {"u": [], "v": []}, {"u": [], "v": []}
    for name in ("u", "v"):
        for j in range(ny):
            values = [arrays[name][i + nx * (j + ny * k)] for k in range(nz) for i in range(nx)]
            m = sum(values) / len(values)
            mean[name].append(m)
            variance[name].append(sum((v - m) ** 2 for v in values) / len(values))
    y = [(y_nodes[j] + y_nodes[j + 1]) / 2 for j in range(ny)]
    return {"time": time, "y": y, "u": mean["u"], "uu": variance["u"], "vv": variance["v"],
            "walls": (y_nodes[0], y_nodes[-1])}


def fold_halves(y_plus, *columns):
    """A channel's profile averaged with its mirror image, lower half first: profile_y.csv and a
    snapshot's plane averages list both halves, y⁺ from the nearer wall, so rows j and n−1−j lie at one
    distance from their walls and their mean is the estimate from both halves' samples. Also the
    largest difference of the halves' values, relative to their mean, in each column from y⁺ = 5 on:
    what the sampling leaves uncertain. A profile not mirror-symmetric in y⁺ comes back as it is."""
    n = len(y_plus)
    mirrored = n >= 2 and all(abs(y_plus[j] - y_plus[n - 1 - j]) <= 1e-6 * max(1.0, y_plus[j]) for j in range(n))
    if not mirrored:
        return [list(y_plus)] + [list(c) for c in columns], [None] * len(columns)
    half = (n + 1) // 2
    folded = [[0.5 * (c[j] + c[n - 1 - j]) for j in range(half)] for c in (y_plus,) + columns]
    spread = [max((abs(c[j] - c[n - 1 - j]) / abs(0.5 * (c[j] + c[n - 1 - j]))
                   for j in range(half) if y_plus[j] >= 5 and c[j] + c[n - 1 - j] != 0), default=0.0)
              for c in columns]
    return folded, spread


def wall_units(profile, nu):
    """u_τ from the mean wall shear ν U₁/y₁ of the first cells at both walls; the profile in wall units
    (y⁺ from the nearer wall, U⁺, ⟨u'u'⟩⁺, ⟨v'v'⟩⁺), its two halves averaged (fold_halves)."""
    y, u, uu, vv = profile["y"], profile["u"], profile["uu"], profile["vv"]
    low, high = profile["walls"]
    shear = nu * 0.5 * (u[0] / (y[0] - low) + u[-1] / (high - y[-1]))
    u_tau = math.sqrt(abs(shear))
    (y_plus, u_plus, uu_plus, vv_plus), _ = fold_halves([min(v - low, high - v) * u_tau / nu for v in y],
                                                        [v / u_tau for v in u], [v / u_tau ** 2 for v in uu],
                                                        [v / u_tau ** 2 for v in vv])
    return u_tau, y_plus, u_plus, uu_plus, vv_plus


def observer_profile(path):
    """Re_τ and the profile in wall units from the statistics observer's profile_y.csv (its first line:
    '# u_tau U, Re_tau R (...), N samples over T time units'), its two halves averaged."""
    with open(path) as f:
        words = f.readline().replace(",", " ").split()
    re_tau, span = float(words[words.index("Re_tau") + 1]), float(words[words.index("over") + 1])
    c = data.read_csv_columns(path)
    (y_plus, u_plus, uu_plus, vv_plus), spread = fold_halves(c["y_plus"], c["U_plus"], c["uu_plus"], c["vv_plus"])
    halves = (f"; the two halves averaged (their U⁺ differ by up to {100 * spread[0]:.2g} % from y⁺ = 5 on)"
              if spread[0] is not None else "")
    return (re_tau, y_plus, u_plus, uu_plus, vv_plus,
            f"time averages over {span:.4g} time units ({os.path.basename(path)}){halves}")


def snapshot_profile(out, settings):
    """The same from the plane averages of the last checkpoint (one instant)."""
    physics = settings["physics"]
    nu = physics.get("reference_velocity", 1) * physics.get("reference_length", 1) / physics["re"] \
        if "re" in physics else physics["nu"]
    profile = checkpoint_profile(out, settings)
    u_tau, y_plus, u_plus, uu_plus, vv_plus = wall_units(profile, nu)
    half_height = (profile["walls"][1] - profile["walls"][0]) / 2
    return (u_tau * half_height / nu, y_plus, u_plus, uu_plus, vv_plus,
            f"t = {profile['time']:.4g}: plane averages of one snapshot (no profile_y.csv)")


def analyse(run, out):
    settings = data.case_settings(run.case, run.overrides)
    observed = data.statistics_file(out, "profile_y.csv")
    re_tau, y_plus, u_plus, uu_plus, vv_plus, note = (observer_profile(observed) if observed
                                                      else snapshot_profile(out, settings))
    ref = data.channel_reference()
    worst = None
    for yp, up in zip(y_plus, u_plus):
        if yp >= 5:
            r = series.interpolate(ref["y_plus"], ref["u_plus"], yp)
            if r is not None and (worst is None or abs(up - r) / r > abs(worst[1] - worst[2]) / worst[2]):
                worst = (yp, up, r)
    rows = [Comparison(run.name, "Re_τ (wall shear)", re_tau, ref["re_tau"], ref["re_tau"], 0.02, note)]
    if worst:
        rows.append(Comparison(run.name, f"U⁺ at y⁺ = {worst[0]:.1f} (worst from y⁺ = 5 to the centre)",
                               worst[1], worst[2], worst[2], 0.03, note))
    rows.append(Comparison(run.name, "peak ⟨u′u′⟩⁺", max(uu_plus), max(ref["uu"]), max(ref["uu"]), 0.10, note))
    # No target: the wall-normal fluctuations vanish in a laminar channel, so this says whether the
    # flow is turbulent at all.
    rows.append(Comparison(run.name, "peak ⟨v′v′⟩⁺", max(vv_plus), max(ref["vv"]), max(ref["vv"]), None, note))
    return rows, {"y_plus": y_plus, "u_plus": u_plus, "uu_plus": uu_plus}


def energy_history(out, settings):
    """(t, √(2E/V)) from diagnostics.csv: the r.m.s. velocity, which a laminarising channel shows as a
    steady climb towards the laminar bulk velocity Re_τ/3."""
    d = data.read_diagnostics(os.path.join(out, "diagnostics.csv"))
    length = settings["mesh"]["length"]
    volume = length[0] * length[1] * length[2]
    return d["time"], [math.sqrt(2 * e / volume) for e in d["kinetic_energy"]], d["enstrophy"]


def plot(run, out, profiles, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    ref = data.channel_reference()
    fig, axes = plt.subplots(1, 3, figsize=(13, 4))
    axes[0].semilogx(ref["y_plus"][1:], ref["u_plus"][1:], "k-", lw=2, label="DNS, Moser et al. 1999")
    axes[1].plot(ref["y_plus"], ref["uu"], "k-", lw=2, label="DNS")
    for name, p in profiles.items():
        axes[0].semilogx(p["y_plus"], p["u_plus"], "o-", ms=3, label=name)
        axes[1].plot(p["y_plus"], p["uu_plus"], "o-", ms=3, label=name)
    axes[0].set_xlabel("y⁺"), axes[0].set_ylabel("U⁺"), axes[0].legend(fontsize=8)
    axes[1].set_xlabel("y⁺"), axes[1].set_ylabel("⟨u′u′⟩⁺"), axes[1].set_xlim(0, 180)
    for name, o in out.items():
        t, rms, _ = energy_history(o, data.case_settings(run[name].case, run[name].overrides))
        axes[2].plot(t, rms, label=name)
    axes[2].set_xlabel("t u_τ/δ"), axes[2].set_ylabel("√(2E/V) / u_τ"), axes[2].legend(fontsize=8)
    fig.suptitle("Channel, Re_τ 180")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
