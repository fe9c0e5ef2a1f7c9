"""The cylinder wake's recirculation length L_r/D from the wake_<kk>_z<j> probes on its centreline
(runs.wake_probes: a row of streamwise positions on each of a few lines over the span) and its standard
error.

The mean profile ⟨u⟩(x) averages each probe's u over time, weighted by the rows' spacing (probes.csv's
rows come every few steps of a varying Δt: a plain sum of the samples would weight the stretches of
small steps more), and over the probes that share an x. L_r/D is where that profile first turns from
negative to positive after its minimum, interpolated linearly, less the half diameter from the
cylinder's centre to its base: the reverse flow of the near wake lies around the minimum, and a
crossing before it is a probe near the base where the mean is a small number of either sign.

Its standard error comes from batch means (uncertainty.py for a time mean): the window cut into B equal
batches of time, L_r taken from each batch's profile, σ = std(batch L_r) / √B. A batch whose profile
does not cross leaves σ undefined (the reason is kept) rather than dropped: dropping it would hide
the batch that differs most.
"""
import bisect
import math
from dataclasses import dataclass

from . import data
from .uncertainty import MIN_BATCHES, MeanEstimate, batch_sigma

PREFIX = "wake_"  # the probes named wake_<kk>_z<j> (runs.wake_probes)
BASE = 0.5  # the cylinder's base, x = D/2 from its centre (D = 1)
BATCHES = 8


@dataclass
class WakeLength:
    value: float    # L_r/D over the window; None when the profile does not cross after its minimum
    sigma: float    # its standard error from batch means; None when it could not be had (`reason`)
    batches: int    # B, the batches behind sigma
    window: tuple   # (start, end) in time
    reason: str = ""  # why value or sigma is None

    def text(self):
        """"L_r ± σ (B batch means)" in figures, or what is missing and why."""
        if self.value is None:
            return f"no L_r: {self.reason}"
        if self.sigma is None:
            return f"{self.value:.3f} ± — ({self.reason})"
        return f"{self.value:.3f} ± {self.sigma:.2g} ({self.batches} batch means)"

    def estimate(self):
        """As uncertainty.py's time mean, for its agreement tables (no τ: σ is from batch means of L_r)."""
        return MeanEstimate(self.value, self.sigma, None, self.batches, self.window, "L_r")


def read_probes(run, probes_file):
    """(t, {x: [u series of each probe at x]}) of the run's wake probes, their positions from the case
    with the run's overrides."""
    settings = data.case_settings(run.case, run.overrides)
    c = data.read_csv_columns(probes_file)
    lines = {}
    for name, p in settings.get("probes", {}).items():
        if name.startswith(PREFIX):
            lines.setdefault(p["position"][0], []).append(c[f"{name}_u"])
    return c["time"], lines


def weights(t, start, end):
    """(first index, weights) such that Σ w_i y_i over the samples from the first index is the integral
    of y linearly interpolated between the samples over [start, end] (the trapezoid rule, the window's
    ends falling between samples)."""
    lo = max(bisect.bisect_right(t, start) - 1, 0)
    hi = min(bisect.bisect_left(t, end), len(t) - 1)
    w = [0.0] * (hi - lo + 1)
    for k in range(lo, hi):
        h = t[k + 1] - t[k]
        p, q = max(t[k], start), min(t[k + 1], end)
        if q <= p or h <= 0:
            continue
        # y's integral over [p, q] ⊂ [t_k, t_k+1] is (q − p) times y at the midpoint, shared by y_k and y_k+1.
        share = ((p + q) / 2 - t[k]) / h
        w[k - lo] += (q - p) * (1 - share)
        w[k + 1 - lo] += (q - p) * share
    return lo, w


def weighted_mean(w, values):
    """Σ w_i v_i / Σ w_i over the weights' length (weights from `weights`, values from its first index)."""
    return sum(a * b for a, b in zip(w, values)) / sum(w)


def fluctuations(w, values):
    """(the weighted mean of values, each value less it) over the weights' length."""
    mean = weighted_mean(w, values)
    return mean, [v - mean for v in values[:len(w)]]


def profile(t, lines, start, end):
    """[(x, ⟨u⟩)] sorted by x: each probe's time mean over [start, end], averaged over the probes at x."""
    lo, w = weights(t, start, end)
    if sum(w) <= 0:
        raise ValueError(f"no samples in t = {start}..{end}")
    return sorted((x, sum(weighted_mean(w, u[lo:lo + len(w)]) for u in us) / len(us)) for x, us in lines.items())


def crossing(line):
    """L_r/D of a profile [(x, ⟨u⟩)]: its first upward zero crossing after its minimum, interpolated,
    less the base's x; None when there is none."""
    first = min(range(len(line)), key=lambda i: line[i][1])
    for (x0, u0), (x1, u1) in zip(line[first:], line[first + 1:]):
        if u0 < 0 <= u1:
            return x0 + (x1 - x0) * (-u0) / (u1 - u0) - BASE
    return None


def recirculation_length(t, lines, start, end=None, batches=BATCHES):
    """L_r/D over start ≤ t ≤ end (without end: to the last row) and its standard error from `batches`
    batch means."""
    if batches < MIN_BATCHES:
        raise ValueError(f"batch means need at least {MIN_BATCHES} batches, got {batches}")
    end = t[-1] if end is None else min(end, t[-1])
    start = max(start, t[0])
    window = (start, end)
    step = (end - start) / batches
    profiles = [profile(t, lines, start + b * step, start + (b + 1) * step) for b in range(batches)]
    # The batches are equally long and their time integrals add up: the window's profile is their mean.
    whole = [(x, sum(p[i][1] for p in profiles) / batches) for i, (x, _) in enumerate(profiles[0])]
    value = crossing(whole)
    if value is None:
        return WakeLength(None, None, batches, window, f"the mean u over t = {start:.4g}–{end:.4g} does not "
                                                       "turn positive after its minimum")
    found = [crossing(p) for p in profiles]
    missing = [b for b, v in enumerate(found) if v is None]
    if missing:
        spans = ", ".join(f"t = {start + b * step:.4g}–{start + (b + 1) * step:.4g}" for b in missing)
        return WakeLength(value, None, batches, window, f"no crossing in {len(missing)} of {batches} batches ({spans})")
    return WakeLength(value, batch_sigma(found), batches, window)


def spanwise_correlation(t, lines, x, start, end):
    """The mean correlation coefficient of u's fluctuations between the probes at x (each pair of
    spanwise lines once), time-weighted over [start, end]: 1 where the wake is two-dimensional, near 0
    where its turbulence on lines a quarter span apart is independent. None with fewer than two probes
    at x or a probe whose u does not vary."""
    us = lines.get(x, [])
    if len(us) < 2:
        return None
    lo, w = weights(t, start, end)
    if sum(w) <= 0:
        raise ValueError(f"no samples in t = {start}..{end}")
    f = [fluctuations(w, u[lo:lo + len(w)])[1] for u in us]

    def covariance(a, b):
        return weighted_mean(w, [ai * bi for ai, bi in zip(a, b)])

    variances = [covariance(a, a) for a in f]
    if min(variances) <= 0:
        return None
    pairs = [(i, j) for i in range(len(us)) for j in range(i + 1, len(us))]
    return sum(covariance(f[i], f[j]) / math.sqrt(variances[i] * variances[j]) for i, j in pairs) / len(pairs)
