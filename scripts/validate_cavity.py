#!/usr/bin/env python3
"""Runs the 2D lid-driven cavity with `miniapp run cavity` and compares its centreline velocities with
Ghia, Ghia & Shin (1982): u along x = 0.5 and v along y = 0.5, linearly interpolated from the cell
centres (the two columns either side of the centreline with an even cell count; the wall values at the
ends). Prints the deviation at every reference point and the maximum per profile, relative to the lid
speed 1. Exit status 1 when a maximum exceeds --bound. Standard library only.

    scripts/validate_cavity.py --re 100 --cells 64 --end-time 20
    scripts/validate_cavity.py --re 400 --cells 64 --end-time 40
"""
import argparse
import csv
import os
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def read_checkpoint(path):
    """The arrays of a checkpoint written by miniapp/output/checkpoint.cpp (native little-endian)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"MINICKPT":
        sys.exit(f"{path}: not a miniapp checkpoint")
    # header: magic, endian mark, version, rank, rank count, step, time, settings and mesh hashes,
    # payload bytes, checksum
    at = 72

    def take(fmt):
        nonlocal at
        values = struct.unpack_from("<" + fmt, data, at)
        at += struct.calcsize("<" + fmt)
        return values

    def string():
        nonlocal at
        (n,) = take("Q")
        at += n
        return data[at - n:at].decode()

    string()  # case name
    take("4Q")  # mesh fingerprint
    step, time = take("qd")
    take("2d")  # dt, dt_old
    for _ in range(take("Q")[0]):  # case settings: key, value
        string()
        string()
    arrays = {}
    for _ in range(take("Q")[0]):
        name = string()
        (n,) = take("Q")
        arrays[name] = take(f"{n}d")
    return step, time, arrays


def centreline(values, n, across, wall_at_1):
    """(coordinate, value) along the centreline {x_across = 0.5} of an n x n uniform slab, cells
    numbered x fastest (the hex generator's order), wall values added at 0 and 1."""
    h = 1.0 / n
    lo, hi = (n - 1) // 2, n // 2  # the columns either side of 0.5 (the same one for odd n)
    points = [(0.0, 0.0)]
    for k in range(n):
        cell = (lambda i: i + n * k) if across == 0 else (lambda j: k + n * j)
        points.append(((k + 0.5) * h, 0.5 * (values[cell(lo)] + values[cell(hi)])))
    points.append((1.0, wall_at_1))
    return points


def interpolate(points, s):
    for (s0, v0), (s1, v1) in zip(points, points[1:]):
        if s0 <= s <= s1:
            return v0 + (v1 - v0) * (s - s0) / (s1 - s0)
    raise ValueError(s)


def reference(path, re, line):
    with open(path) as f:
        rows = csv.DictReader(line for line in f if not line.startswith("#"))
        return [(float(r["coord"]), float(r["value"])) for r in rows
                if int(r["re"]) == re and r["line"] == line and 0 < float(r["coord"]) < 1]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--miniapp", default=os.path.join(ROOT, "build", "miniapp", "miniapp"))
    p.add_argument("--reference", default=os.path.join(ROOT, "tests", "data", "ghia1982_cavity.csv"))
    p.add_argument("--re", type=int, default=100, choices=[100, 400])
    p.add_argument("--cells", type=int, default=64)
    p.add_argument("--end-time", type=float, default=20.0)
    p.add_argument("--bound", type=float, default=0.02, help="max deviation allowed (lid speed 1)")
    args = p.parse_args()

    with tempfile.TemporaryDirectory() as out:
        n = args.cells
        command = [args.miniapp, "run", "cavity", "--backend", "cpu", "--quiet",
                   "--set", f"physics.re={args.re}", "--set", f"mesh.cells=[{n},{n},1]",
                   "--set", f"mesh.length=[1,1,{1.0 / n!r}]", "--set", f"run.end_time={args.end_time}",
                   "--set", "output.interval=0", "--set", f"output.directory={out}"]
        print("$", " ".join(command), flush=True)
        run = subprocess.run(command, capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit(run.stdout + run.stderr)
        print("\n".join(l for l in run.stdout.splitlines() if l.startswith(("summary", "     "))))
        newest = max(int(name.split("_")[1].split(".")[0]) for name in os.listdir(out) if name.endswith(".complete"))
        step, time, arrays = read_checkpoint(os.path.join(out, f"checkpoint_{newest}_r0.bin"))

    print(f"\nRe {args.re}, {n}x{n}, t = {time:g} ({step} steps)")
    worst = {}
    for line, component, across, wall in (("u_at_x0.5", "u", 0, 1.0), ("v_at_y0.5", "v", 1, 0.0)):
        profile = centreline(arrays[component], n, across, wall)
        print(f"\n{line}: coord, Ghia, miniapp, deviation")
        worst[line] = 0.0
        for s, value in reference(args.reference, args.re, line):
            ours = interpolate(profile, s)
            worst[line] = max(worst[line], abs(ours - value))
            print(f"  {s:.4f}  {value:+.5f}  {ours:+.5f}  {ours - value:+.5f}")
    print()
    for line, d in worst.items():
        print(f"max |deviation| {line}: {d:.4f} ({'pass' if d <= args.bound else 'FAIL'}, bound {args.bound})")
    return 0 if all(d <= args.bound for d in worst.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
