#!/usr/bin/env python3
"""Plots of a 'miniapp predict' report: python3 plot_prediction.py REPORT.json OUT_DIR.

Writes phases.png (predicted, and measured when present, time per phase of Algorithm 1),
scaling.png (time per step against the device count: strong scaling and, for reports counted on
several ranks, weak scaling, each with its communication part, the ideal strong line and the measured
step) and roofline.png (arithmetic intensity against achieved GB/s of each kernel kind of the step,
under the measured copy-bandwidth ceiling).
Needs matplotlib (Debian: python3-matplotlib).
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt  # noqa: E402


def plot_phases(report, out_dir):
    one = report["scaling"][0]
    names = [p["phase"] for p in one["phases"]]
    predicted = [1e3 * p["seconds"] for p in one["phases"]]
    fig, ax = plt.subplots(figsize=(8, 4))
    x = range(len(names))
    if "measured" in report:
        m = report["measured"]
        predicted = [1e3 * p["predicted_seconds"] for p in m["phases"]]
        measured = [1e3 * p["measured_seconds"] for p in m["phases"]]
        ax.bar([i - 0.2 for i in x], predicted, 0.4, label="predicted")
        ax.bar([i + 0.2 for i in x], measured, 0.4, label="measured")
        ax.legend()
    else:
        ax.bar(list(x), predicted, 0.6, label="predicted")
    ax.set_xticks(list(x))
    ax.set_xticklabels(names, rotation=30, ha="right")
    ax.set_ylabel("ms per step")
    ax.set_title(f"{report['case']['name']}: time per phase of Algorithm 1")
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "phases.png"), dpi=120)
    plt.close(fig)


def scaling_curve(ax, rows, label, style):
    """Time per step of `rows` against devices, and its communication part where it is modelled."""
    devices = [r["devices"] for r in rows]
    modelled = any(r["communication_modelled"] for r in rows)
    ax.plot(devices, [1e3 * r["step_seconds"] for r in rows], style,
            label=label + ("" if modelled else " (no communication modelled)"))
    comm = [(r["devices"], 1e3 * r["communication_seconds"]) for r in rows if r["communication_seconds"] > 0]
    if modelled and comm:  # one device communicates nothing: no point on the log axis
        ax.plot([d for d, _ in comm], [c for _, c in comm], style.replace("-", ":"),
                label=label + ": communication", alpha=0.7)


def plot_scaling(report, out_dir):
    strong = report["scaling"]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    scaling_curve(ax, strong, "strong", "o-")
    if report.get("weak_scaling"):
        scaling_curve(ax, report["weak_scaling"], "weak", "s-")
    devices = [r["devices"] for r in strong]
    ax.plot(devices, [1e3 * strong[0]["step_seconds"] / d for d in devices], "--", color="grey",
            label="ideal strong")
    if "measured" in report:
        m = report["measured"]
        ax.plot([m.get("ranks", 1)], [1e3 * m["step_seconds"]], "k*", markersize=12, label="measured")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("devices")
    ax.set_ylabel("ms per step")
    ax.set_title(f"{report['case']['name']}: time per step against devices")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "scaling.png"), dpi=120)
    plt.close(fig)


def kernel_points(report):
    """(kind, flops/byte, GB/s, standing) of each kernel kind over the step, as the report computed them
    (measured time when present); a figure the report found impossible is left out."""
    return [(k["kind"], k["flops"] / k["bytes"], k["gb_per_s"], k["standing"])
            for k in report["achieved_bandwidth"] if k["plotted"] and k["flops"] > 0]


def plot_roofline(report, out_dir):
    ceiling = report["calibration"]["copy_gb_per_s"]
    points = kernel_points(report)
    fig, ax = plt.subplots(figsize=(6, 4))
    for kind, intensity, gbs, standing in points:
        ax.scatter([intensity], [gbs], s=40)
        label = kind + (" (cache-resident)" if standing == "cache-resident" else "")
        ax.annotate(label, (intensity, gbs), textcoords="offset points", xytext=(5, 5))
    ax.axhline(ceiling, color="red", linestyle="--", label=f"copy bandwidth {ceiling:.0f} GB/s")
    ax.set_xscale("log")
    ax.set_xlabel("arithmetic intensity (flop/byte)")
    ax.set_ylabel("achieved GB/s")
    ax.set_ylim(bottom=0, top=1.3 * max([ceiling] + [p[2] for p in points]))
    ax.set_title(f"{report['case']['name']}: kernels against the bandwidth ceiling")
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(out_dir, "roofline.png"), dpi=120)
    plt.close(fig)


def main(argv):
    if len(argv) != 3:
        sys.exit("usage: plot_prediction.py REPORT.json OUT_DIR")
    with open(argv[1], encoding="utf-8") as f:
        report = json.load(f)
    plot_phases(report, argv[2])
    plot_scaling(report, argv[2])
    plot_roofline(report, argv[2])


if __name__ == "__main__":
    main(sys.argv)
