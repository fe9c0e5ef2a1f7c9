"""Small numerical helpers on time series: derivatives, peaks, periods, interpolation."""
import cmath
import math


def resample(t, y, step):
    """y(t) linearly interpolated onto a uniform grid of spacing `step` (t increasing)."""
    grid, values, k = [], [], 0
    x = t[0]
    while x <= t[-1]:
        while t[k + 1] < x:
            k += 1
        w = (x - t[k]) / (t[k + 1] - t[k]) if t[k + 1] > t[k] else 0.0
        grid.append(x)
        values.append(y[k] + w * (y[k + 1] - y[k]))
        x += step
    return grid, values


def minus_derivative(t, y):
    """−dy/dt by central differences (interior points)."""
    return t[1:-1], [-(y[i + 1] - y[i - 1]) / (t[i + 1] - t[i - 1]) for i in range(1, len(t) - 1)]


def peak(t, y):
    """The maximum of y(t), refined by the parabola through it and its two neighbours: (t, y)."""
    k = max(range(len(y)), key=lambda i: y[i])
    if k == 0 or k == len(y) - 1:
        return t[k], y[k]
    y0, y1, y2 = y[k - 1], y[k], y[k + 1]
    h = t[k + 1] - t[k]
    curvature = y0 - 2 * y1 + y2
    shift = 0.5 * (y0 - y2) / curvature if curvature != 0 else 0.0
    return t[k] + shift * h, y1 - 0.25 * (y0 - y2) * shift


def upward_crossings(t, y, level):
    """Times where y crosses `level` upwards, linearly interpolated."""
    out = []
    for i in range(1, len(y)):
        if y[i - 1] < level <= y[i]:
            out.append(t[i - 1] + (level - y[i - 1]) * (t[i] - t[i - 1]) / (y[i] - y[i - 1]))
    return out


def frequency(t, y):
    """The frequency of an oscillating y(t) from its upward crossings of its mean (whole periods only),
    or None with fewer than two crossings."""
    mean = sum(y) / len(y)
    crossings = upward_crossings(t, y, mean)
    if len(crossings) < 2:
        return None
    return (len(crossings) - 1) / (crossings[-1] - crossings[0])


def spectral_frequency(t, y, samples=1024, oversample=8, highest=2.0):
    """The frequency of the largest peak of y(t)'s power spectrum: y resampled evenly, its mean removed,
    a Hann window, the periodogram on a grid `oversample` times finer than 1/T from 2/T (two whole
    periods) to `highest`, the peak refined by the parabola through its log power and its neighbours'.
    For a signal whose period wanders and that carries ripples (a turbulent wake's lift), where
    counting crossings of the mean counts the ripples too. None for a constant signal."""
    grid, values = resample(t, y, (t[-1] - t[0]) / (samples - 1))
    n, span = len(values), grid[-1] - grid[0]
    mean = sum(values) / n
    windowed = [(v - mean) * (0.5 - 0.5 * math.cos(2 * math.pi * i / (n - 1))) for i, v in enumerate(values)]
    step = 1 / (oversample * span)
    freqs = [k * step for k in range(2 * oversample, int(highest / step) + 1)]
    power = [abs(sum(x * cmath.exp(-2j * math.pi * f * (g - grid[0])) for x, g in zip(windowed, grid))) ** 2
             for f in freqs]
    k = max(range(len(power)), key=lambda i: power[i])
    if power[k] == 0:
        return None
    if 0 < k < len(power) - 1 and min(power[k - 1], power[k + 1]) > 0:
        a, b, c = (math.log(p) for p in power[k - 1:k + 2])
        curvature = a - 2 * b + c
        return freqs[k] + (0.5 * (a - c) / curvature if curvature != 0 else 0.0) * step
    return freqs[k]


def interpolate(xs, ys, x):
    """ys(x) linearly interpolated from increasing xs; None outside."""
    for i in range(1, len(xs)):
        if xs[i - 1] <= x <= xs[i]:
            w = (x - xs[i - 1]) / (xs[i] - xs[i - 1])
            return ys[i - 1] + w * (ys[i] - ys[i - 1])
    return None


def relative_error(computed, reference):
    return (computed - reference) / reference
