# The batched_pcg unit's curve of a calibration file as miniapp::predict::CostCurve prices it (latency
# per call from the file, seconds per byte linear in log bytes between the points, held beyond them),
# for the analysis scripts of this folder and of ../cpu_2026-12-05_fft_widths/.
import math


def log_interpolate(xy, x):
    """y at x on the polyline through the (x, y) of xy, x increasing, in log x; the end values beyond."""
    if x <= xy[0][0]:
        return xy[0][1]
    if x >= xy[-1][0]:
        return xy[-1][1]
    i = next(k for k, p in enumerate(xy) if p[0] >= x)
    (xa, ya), (xb, yb) = xy[i - 1], xy[i]
    return ya + math.log(x / xa) / math.log(xb / xa) * (yb - ya)


def batched_unit(calibration):
    """seconds(bytes, calls) of one iteration on the calibration's batched_pcg unit."""
    unit = next(u for u in calibration["iteration_curves"] if u["unit"] == "batched_pcg")
    latency = unit["latency_s"]
    rates = [(b, max(t - latency * c, 1e-3 * t) / b) for b, t, c in sorted(unit["points"])]
    return lambda b, calls: latency * calls + b * log_interpolate(rates, b)
