#!/usr/bin/env python3
"""Device-count plot of a 'miniapp predict' report: python3 plot_devices.py REPORT.json OUT_DIR.

Writes devices.png: predicted time per step against the device count, strong scaling (the case split
over the devices) and, for reports counted on several ranks, weak scaling (the case's size on every
device), each with its communication part, and the measured step when the report has one.
Needs matplotlib (Debian: python3-matplotlib).
"""
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt  # noqa: E402


def curve(ax, rows, label, style):
    devices = [r["devices"] for r in rows]
    ax.plot(devices, [1e3 * r["step_seconds"] for r in rows], style, label=label)
    if any(r["communication_modelled"] for r in rows):
        ax.plot(devices, [1e3 * r["communication_seconds"] for r in rows], style.replace("-", ":"),
                label=label + ": communication", alpha=0.7)


def main(argv):
    if len(argv) != 3:
        sys.exit("usage: plot_devices.py REPORT.json OUT_DIR")
    with open(argv[1], encoding="utf-8") as f:
        report = json.load(f)
    strong = report["scaling"]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    modelled = any(r["communication_modelled"] for r in strong)
    curve(ax, strong, "strong" + ("" if modelled else " (no communication)"), "o-")
    if report.get("weak_scaling"):
        curve(ax, report["weak_scaling"], "weak", "s-")
    devices = [r["devices"] for r in strong]
    ax.plot(devices, [1e3 * strong[0]["step_seconds"] / d for d in devices], "--", color="grey", label="ideal strong")
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
    fig.savefig(os.path.join(argv[2], "devices.png"), dpi=120)
    plt.close(fig)


if __name__ == "__main__":
    main(sys.argv)
