#!/usr/bin/env python3
"""Iterations per frequency of 'miniapp bench fft --csv': python3 plot_fft_iterations.py ITERATIONS.csv OUT.png.

One curve per mesh (N2d x Nper) against the relative frequency xi = 2k/Nper, as the thesis' Fig. 4.4:
solid with Jacobi on every frequency, dashed with the auto-tuned preconditioner blocks.
Needs matplotlib (Debian: python3-matplotlib); without it, prints the table instead.
"""
import csv
import sys
from collections import defaultdict


def read(path):
    curves = defaultdict(list)
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            key = (int(row["plane_cells"]), int(row["planes"]))
            curves[key].append((float(row["xi"]), int(row["iterations_jacobi"]), int(row["iterations_tuned"])))
    return curves


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    curves = read(sys.argv[1])
    try:
        import matplotlib

        matplotlib.use("Agg")  # no display needed
        import matplotlib.pyplot as plt
    except ImportError:
        for (cells, planes), points in sorted(curves.items()):
            print(f"{cells} x {planes}: " + " ".join(f"{xi:.3f}:{j}/{t}" for xi, j, t in points))
        return
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for (cells, planes), points in sorted(curves.items()):
        xi = [p[0] for p in points]
        line, = ax.plot(xi, [p[1] for p in points], label=f"{cells} x {planes}, Jacobi")
        ax.plot(xi, [p[2] for p in points], "--", color=line.get_color(), label=f"{cells} x {planes}, tuned")
    ax.set_xlabel("relative frequency  xi = 2k / Nper")
    ax.set_ylabel("PCG iterations")
    ax.set_yscale("log")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(sys.argv[2], dpi=120)


if __name__ == "__main__":
    main()
