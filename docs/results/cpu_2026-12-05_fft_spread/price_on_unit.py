#!/usr/bin/env python3
# Prices a counted FFT-path iteration on a calibration's batched_pcg unit curve twice: at its mean
# size (as predict did before a80166c) and at each size of its launched iterations in its share (as
# it does since), on the curve of unit_curve.py.
# Usage: price_on_unit.py REPORT_JSON CALIBRATION_JSON [LAUNCHED_ITERATIONS]
import json, sys

from unit_curve import batched_unit

report, calibration = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
seconds = batched_unit(calibration)


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
