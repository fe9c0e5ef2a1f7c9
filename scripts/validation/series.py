"""Small numerical helpers on time series: derivatives, peaks, periods, interpolation."""


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


def interpolate(xs, ys, x):
    """ys(x) linearly interpolated from increasing xs; None outside."""
    for i in range(1, len(xs)):
        if xs[i - 1] <= x <= xs[i]:
            w = (x - xs[i - 1]) / (xs[i] - xs[i - 1])
            return ys[i - 1] + w * (ys[i] - ys[i - 1])
    return None


def relative_error(computed, reference):
    return (computed - reference) / reference
