#!/usr/bin/env python3
# Prices a counted FFT-path iteration on a calibration's batched_pcg unit curve twice: at its mean
# size (as predict did before a80166c) and at each size of its launched iterations in its share (as
# it does since), reproducing miniapp::predict::CostCurve (latency per call from the two smallest
# points, seconds per byte interpolated linearly in log bytes, held beyond the ends).
# Usage: price_on_unit.py REPORT_JSON CALIBRATION_JSON [LAUNCHED_ITERATIONS]
import bisect, json, math, sys

report, calibration = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
unit = next(u for u in calibration["iteration_curves"] if u["unit"] == "batched_pcg")
points, latency = sorted(unit["points"]), unit["latency_s"]
per_byte = [max(t - latency * c, 1e-3 * t) / b for b, t, c in points]
logs = [math.log(p[0]) for p in points]


def seconds(b, calls):
    x = math.log(b)
    if x <= logs[0]:
        s = per_byte[0]
    elif x >= logs[-1]:
        s = per_byte[-1]
    else:
        i = bisect.bisect(logs, x)
        f = (x - logs[i - 1]) / (logs[i] - logs[i - 1])
        s = per_byte[i - 1] + f * (per_byte[i] - per_byte[i - 1])
    return latency * calls + b * s


counts = report["kernel_counts"]
b = sum(k["bytes"] for k in counts["per_iteration"].values())
c = sum(k["calls"] for k in counts["per_iteration"].values())
mean = seconds(b, c)
spread = sum(s["share"] * seconds(b * s["bytes_ratio"], c) for s in counts["iteration_spread"])
print(f"{len(counts['iteration_spread'])} sizes; mean iteration {b / 1e6:.2f} MB, {c:.2f} calls")
print(f"priced at the mean size {mean * 1e6:.2f} us, by size {spread * 1e6:.2f} us ({100 * (spread / mean - 1):+.1f} %)")
if len(sys.argv) > 3:
    n = float(sys.argv[3])
    print(f"{n} launched iterations: {n * mean * 1e3:.3f} -> {n * spread * 1e3:.3f} ms")
