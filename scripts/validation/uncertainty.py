"""The statistical uncertainty of a time average, and whether two runs' averages agree within it.

A time average over a finite window of a turbulent signal has a standard error that the scatter of the
signal alone underestimates: successive samples are correlated. Two estimates are made of the signal
resampled uniformly in time:
- the integral time scale τ, the autocorrelation integrated to its first zero crossing, which gives
  σ ≈ s √(2τ / T) (s the signal's standard deviation, T the window);
- batch means: the window cut into B equal batches each at least 5τ long (nearly independent),
  σ = std(batch means) / √B.
The batch-means value is used where there are at least MIN_BATCHES batches; with fewer, the
autocorrelation estimate, marked as such. Both underestimate σ in a window of only a few τ (the
autocorrelation of a short record falls to zero early): the window should span ten τ or more.
"""
import math
from dataclasses import dataclass

MIN_BATCHES = 5
BATCH_TAUS = 5  # the shortest batch, in integral times
MAX_BATCHES = 20
MAX_POINTS = 4000  # the resampled signal's length: keeps the autocorrelation's cost bounded


@dataclass
class MeanEstimate:
    mean: float
    sigma: float        # standard error of the mean
    tau: float          # integral time scale of the signal; None where σ did not use one
    batches: int        # batches behind sigma; 0: from τ (too few batches for batch means)
    window: tuple       # (first time, last time)
    of: str = ""        # what each batch gave where it is not the signal's mean (e.g. "L_r", wake.py)

    def method(self):
        if not self.batches:
            return "from τ (fewer than 5 batches of 5τ)"
        return f"{self.batches} batch means" + (f" of {self.of}" if self.of else "")


def uniform(t, y):
    """y(t) linearly interpolated onto n points evenly spaced over [t[0], t[-1]] (n: the samples, at
    most MAX_POINTS); returns (spacing, values)."""
    n = min(len(t), MAX_POINTS)
    step = (t[-1] - t[0]) / (n - 1)
    out, k = [], 0
    for i in range(n):
        x = t[0] + i * step
        while k + 2 < len(t) and t[k + 1] < x:
            k += 1
        w = (x - t[k]) / (t[k + 1] - t[k]) if t[k + 1] > t[k] else 0.0
        out.append(y[k] + min(max(w, 0.0), 1.0) * (y[k + 1] - y[k]))
    return step, out


def integral_time(step, y):
    """τ: the normalised autocorrelation of evenly spaced y summed (trapezoid) up to its first zero."""
    n = len(y)
    mean = sum(y) / n
    d = [v - mean for v in y]
    variance = sum(v * v for v in d) / n
    if variance == 0:
        return 0.0
    total = 0.5  # half of ρ(0) = 1
    for lag in range(1, n // 2):
        rho = sum(d[i] * d[i + lag] for i in range(n - lag)) / (n * variance)
        if rho <= 0:
            break
        total += rho
    return total * step


def batch_sigma(values):
    """The standard error of the mean of B nearly independent batch values: their std / √B."""
    b = len(values)
    centre = sum(values) / b
    return math.sqrt(sum((v - centre) ** 2 for v in values) / (b - 1) / b)


def time_mean(t, y, start=None, end=None):
    """The average of y(t) over start ≤ t ≤ end (without them: from the first or to the last sample)
    and its standard error."""
    keep = [i for i, x in enumerate(t) if (start is None or x >= start) and (end is None or x <= end)]
    if len(keep) < 4:
        raise ValueError(f"a time average needs at least 4 samples in t = {start}..{end}, got {len(keep)}")
    t, y = [t[i] for i in keep], [y[i] for i in keep]
    step, values = uniform(t, y)
    n = len(values)
    mean = sum(values) / n
    tau = integral_time(step, values)
    span = t[-1] - t[0]
    batches = min(MAX_BATCHES, int(span / (BATCH_TAUS * tau))) if tau > 0 else MAX_BATCHES
    if batches >= MIN_BATCHES:
        size = n // batches
        means = [sum(values[b * size:(b + 1) * size]) / size for b in range(batches)]
        return MeanEstimate(mean, batch_sigma(means), tau, batches, (t[0], t[-1]))
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return MeanEstimate(mean, spread * math.sqrt(2 * tau / span), tau, 0, (t[0], t[-1]))


@dataclass
class Agreement:
    quantity: str
    a: MeanEstimate
    b: MeanEstimate

    def sigma(self):
        return math.hypot(self.a.sigma, self.b.sigma)

    def k(self):
        """|difference| in units of the difference's standard error (inf when both are exact)."""
        d = abs(self.a.mean - self.b.mean)
        s = self.sigma()
        return d / s if s > 0 else (0.0 if d == 0 else math.inf)


def common_window_agreement(quantity, a, b, start):
    """Agreement of two runs' signals a = (t, y) and b over the same window, from `start` to the end of
    the shorter run: runs stopped at different times would otherwise average over different parts of
    a flow that may still drift."""
    end = min(a[0][-1], b[0][-1])
    return Agreement(quantity, time_mean(*a, start, end), time_mean(*b, start, end))


def agreement_table(labels, rows, k=2.0):
    """Markdown: each quantity's two averages, their difference, its σ and whether |Δ| ≤ k σ."""
    a, b = labels
    lines = [f"| quantity | {a} | {b} | difference | σ of the difference | \\|Δ\\|/σ | within {k:g} σ |",
             "| --- | ---: | ---: | ---: | ---: | ---: | --- |"]
    for r in rows:
        lines.append(f"| {r.quantity} | {r.a.mean:.5g} ± {r.a.sigma:.2g} | {r.b.mean:.5g} ± {r.b.sigma:.2g} | "
                     f"{r.a.mean - r.b.mean:+.3g} | {r.sigma():.2g} | {r.k():.2f} | "
                     f"{'yes' if r.k() <= k else 'no'} |")
    notes = [f"{r.quantity}, {label}: t = {x.window[0]:.4g}–{x.window[1]:.4g}, "
             f"τ = {'—' if x.tau is None else f'{x.tau:.3g}'}, σ {x.method()}"
             for r in rows for label, x in zip(labels, (r.a, r.b))]
    return "\n".join(lines + [""] + [f"- {n}" for n in notes])
