#!/usr/bin/env python3
# A written prediction for the GPU, not a measurement: the 128³ Taylor–Green FFT-path iteration
# (counted on the CPU, Jacobi on every frequency as the H200 chose) priced on an H200's batched_pcg
# unit (calibration of 2026-12-05, format 8: no width table) three ways: each size on the unit's
# curve (predict before the width table); by width with a sector model of the GPU's table in place of
# the one a calibration will measure (a thread per row and system, systems fastest: an iteration over
# w systems reads 4·ceil(w/4) values of each row's vector entries, one 32-byte sector per 4, against
# the w the counters count; the matrix part, fitted from the counted sizes, unchanged); and the
# larger of the two for each size (a narrow iteration cannot cost less than the unit's floor).
# Usage: gpu_sector_estimate.py COUNTS_JSON H200_CALIBRATION_JSON LAUNCHED_ITERATIONS
import json, math, os, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cpu_2026-12-05_fft_spread"))
from unit_curve import batched_unit

counts, calibration, launched = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), float(sys.argv[3])
seconds = batched_unit(calibration)


k = counts["kernel_counts"]
mean = sum(x["bytes"] for x in k["per_iteration"].values())
calls = sum(x["calls"] for x in k["per_iteration"].values())
spread = k["iteration_spread"]
# Counted bytes per row against the systems: a + b·w, least squares over the sizes.
xs = [s["systems"] for s in spread]
ys = [mean * s["bytes_ratio"] / s["rows"] for s in spread]
mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
b = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
a = my - b * mx


def sector_cost(w):
    return (a + b * 4 * math.ceil(w / 4)) / (a + b * w)


widest = max(spread, key=lambda s: s["systems"])
rate = seconds(mean * widest["bytes_ratio"], calls) / (mean * widest["bytes_ratio"]) / sector_cost(widest["systems"])
by_size = sum(s["share"] * seconds(mean * s["bytes_ratio"], calls) for s in spread)
by_width = sum(s["share"] * mean * s["bytes_ratio"] * rate * sector_cost(s["systems"]) for s in spread)
floored = sum(s["share"] * max(seconds(mean * s["bytes_ratio"], calls), mean * s["bytes_ratio"] * rate * sector_cost(s["systems"]))
              for s in spread)
print(f"{len(spread)} sizes; counted bytes per row {a:.0f} + {b:.1f} per system; mean iteration {mean / 1e6:.1f} MB")
for name, it in (("by size on the unit (before)", by_size), ("by width, sector model", by_width),
                 ("the larger of the two per size", floored)):
    print(f"  {name}: {it * 1e6:.1f} us an iteration, {launched * it * 1e3:.2f} ms for {launched} launched")
