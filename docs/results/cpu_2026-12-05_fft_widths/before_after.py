#!/usr/bin/env python3
# The FFT path's iteration priced two ways from one report and its calibration: each size of the
# launched iterations on the batched_pcg unit's curve (predict before the width table), and as predict
# prices it since: the widest size without its AMG blocks' bytes on that curve, each size's other bytes
# at that rate times their width's cost (Calibration::batched_width_cost) and its AMG blocks' bytes
# times their cost (batched_amg_cost); with the step, phases and solve errors against the measured
# run under both. The unit's curve: ../cpu_2026-12-05_fft_spread/unit_curve.py.
# Usage: before_after.py REPORT_JSON CALIBRATION_JSON
import json, os, sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "cpu_2026-12-05_fft_spread"))
from unit_curve import batched_unit, log_interpolate

report, calibration = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
seconds = batched_unit(calibration)


def width_cost(rows, systems):
    planes = sorted({p[0] for p in calibration["batched_widths"]})
    by_rows = [(r, log_interpolate([(s, c) for q, s, c in calibration["batched_widths"] if q == r], systems)) for r in planes]
    return log_interpolate(by_rows, rows)


def amg_cost(rows):
    return log_interpolate([(q, c) for q, s, c in calibration["batched_amg_blocks"]], rows)


counts = report["kernel_counts"]
b = sum(k["bytes"] for k in counts["per_iteration"].values())
c = sum(k["calls"] for k in counts["per_iteration"].values())
spread = counts["iteration_spread"]
by_size = sum(s["share"] * seconds(b * s["bytes_ratio"], c) for s in spread)
widest = max(spread, key=lambda s: s["systems"])
jacobi = b * (widest["bytes_ratio"] - widest["preconditioner_ratio"])
rate = seconds(jacobi, c) / jacobi / width_cost(widest["rows"], widest["systems"])
by_width = sum(s["share"] * b * rate * ((s["bytes_ratio"] - s["preconditioner_ratio"]) * width_cost(s["rows"], s["systems"])
                                        + s["preconditioner_ratio"] * amg_cost(s["rows"])) for s in spread)
m = report["measured"]
p = m["prediction"]
launched = p["launched_iterations"]
solve = next(x for x in m["phases"] if x["phase"].startswith("2.2"))
print(f"{len(spread)} sizes, widest {widest['systems']:.0f} systems of {widest['rows']:.0f} rows; "
      f"iteration {by_size * 1e6:.2f} us by size on the unit, {by_width * 1e6:.2f} us by width")
phases = sum(x["measured_seconds"] for x in m["phases"])
for name, it in (("by size (before)", by_size), ("by width (now)", by_width)):
    step = p["step_seconds"] + launched * (it - p["iteration_seconds"])
    solve_price = solve["predicted_seconds"] + launched * (it - p["iteration_seconds"])
    print(f"  {name}: step {step * 1e3:.3f} ms ({100 * (step / m['step_seconds'] - 1):+.1f} %; "
          f"{100 * (step / phases - 1):+.1f} % of the phases), "
          f"solve {solve_price * 1e3:.3f} ms ({100 * (solve_price / solve['measured_seconds'] - 1):+.1f} %)")
print(f"  measured: step {m['step_seconds'] * 1e3:.3f} ms, its phases {phases * 1e3:.3f} ms, "
      f"solve {solve['measured_seconds'] * 1e3:.3f} ms")
