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


def spectral_frequency(t, y, samples=1024, oversample=8):
    """The frequency of the largest peak of y(t)'s power spectrum, as the run summary computes it
    (miniapp/run/signal_period.hpp): y resampled on `samples` even points, its mean removed, a Hann
    window, the periodogram from 2/T (two whole periods) to the Nyquist frequency on a grid `oversample`
    times finer than 1/T, the peak refined by the parabola through its log power and its neighbours'.
    For a signal whose period wanders and that carries ripples (a turbulent wake's lift), where
    counting crossings of the mean counts the ripples too. None for a constant signal."""
    mean = sum(y) / len(y)
    step = (t[-1] - t[0]) / (samples - 1)
    grid, values = resample(t, y, step)
    grid, values = grid[:samples], values[:samples]
    n = len(values)
    windowed = [(v - mean) * (0.5 - 0.5 * math.cos(2 * math.pi * i / (samples - 1))) for i, v in enumerate(values)]
    df = 1 / (oversample * (t[-1] - t[0]))
    freqs = [j * df for j in range(2 * oversample, int(0.5 / step / df) + 1)]
    power = []
    for f in freqs:
        turn = cmath.exp(-2j * math.pi * f * step)  # the phase advances by the same turn each sample
        phase, total = 1.0 + 0j, 0j
        for x in windowed:
            total += x * phase
            phase *= turn
        power.append(abs(total) ** 2)
    k = max(range(len(power)), key=lambda i: power[i])
    if power[k] == 0 or n < 3:
        return None
    if 0 < k < len(power) - 1 and min(power[k - 1], power[k + 1]) > 0:
        a, b, c = (math.log(p) for p in power[k - 1:k + 2])
        curvature = a - 2 * b + c
        return freqs[k] + (0.5 * (a - c) / curvature if curvature != 0 else 0.0) * df
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
