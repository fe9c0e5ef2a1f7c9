#!/usr/bin/env python3
"""The validation set of issue 20: runs the turbulent cases (Taylor-Green at Re 1600, the channel at
Re_τ 180, the cylinder at Re 100 and 3900), each in chunks of at most --chunk-minutes on one device
continued by restarts, compares their headline numbers with published data (tests/data, cited in its
README) and writes tables and plots into docs/validation.md (the section between its markers) and
docs/validation/*.png, with the device, the command and the date.

    scripts/validate.py                    # the full set on one GPU (hours; resumable: rerun to continue)
    scripts/validate.py --quick            # small meshes, short times, on the CPU: checks the pipeline
    scripts/validate.py --cpu-pairs        # the FFT and PCG pressure paths on cases a CPU core runs
    scripts/validate.py --only cylinder    # runs named so, else whose names start so (comma-separated)
    scripts/validate.py --no-run           # analyse the runs already in the work folder
    scripts/validate.py --no-report --max-minutes 9   # runs what fits in 9 minutes; rerun to continue

Needs python3-matplotlib (scripts/install-deps.sh installs it) and a built miniapp.
"""
import argparse
import datetime
import os
import platform
import shlex
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from validation import channel, cylinder, pressure_paths, report, runs, taylor_green  # noqa: E402
from validation.data import ROOT  # noqa: E402
from validation.runner import DoesNotFit, run_in_chunks  # noqa: E402
from validation.runs import select_runs  # noqa: E402


def device_name(backend, work):
    """The device the runs ran on: <work>/device.txt where tools/gpu/validate.sh wrote one, else this
    machine's GPU or CPU."""
    recorded = os.path.join(work, "device.txt")
    if os.path.exists(recorded):
        with open(recorded) as f:
            return f.read().strip()
    if backend == "cuda":
        try:
            return subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"], capture_output=True,
                                  text=True, check=True).stdout.splitlines()[0].strip()
        except (OSError, subprocess.CalledProcessError, IndexError):
            return "a CUDA device (nvidia-smi unavailable)"
    with open("/proc/cpuinfo") as f:
        model = next((l.split(":", 1)[1].strip() for l in f if l.startswith("model name")), platform.processor())
    threads = os.environ.get("OMP_NUM_THREADS", str(os.cpu_count()))
    return f"{model}, {threads} thread{'' if threads == '1' else 's'} (CPU backend)"


def analyse(selected, work, doc, set_name=""):
    """(title, intro, rows, [(alt text, image link)], extra text) per case family with runs in `selected`:
    each case's runs in one family. The plots of a family are named after the set (the full set's
    without a prefix), so that no set's report replaces another's."""
    prefix = f"{set_name}-" if set_name else ""
    families = []
    tg = [r for r in selected if r.case == "taylor-green-3d"]
    if tg:
        rows, curves = [], {}
        for r in tg:
            found, curve = taylor_green.analyse(r, os.path.join(work, r.name))
            rows += found
            curves[r.name] = curve
        path, link = report.image_path(doc, f"{prefix}taylor_green.png")
        taylor_green.plot(curves, path)
        families.append(("Taylor-Green vortex, Re 1600", "Peak of the dissipation rate −dE/dt (E from "
                         "`kinetic_energy` in diagnostics.csv, per unit volume) and its time, against the "
                         "512³ spectral DNS. Targets: 3 % at 256³, 5 % at 128³, the best LES model at 64³ "
                         "within 10 %.", rows, [("Taylor-Green vortex, Re 1600", link)],
                         taylor_green.best_model_note(rows)))
    ch = [r for r in selected if r.case == "channel"]
    if ch:
        rows, profiles = [], {}
        for r in ch:
            found, profiles[r.name] = channel.analyse(r, os.path.join(work, r.name))
            rows += found
        path, link = report.image_path(doc, f"{prefix}channel.png")
        channel.plot({r.name: r for r in ch}, {r.name: os.path.join(work, r.name) for r in ch}, profiles, path)
        families.append(("Channel, Re_τ 180", " ".join(channel.__doc__.split()),
                         rows, [("Channel, Re_τ 180", link)], ""))
    for case, title in (("cylinder", "Cylinder, Re 100"), ("cylinder-3900", "Cylinder, Re 3900 (LES)")):
        # The runs of one case (a resolution study's meshes, the pressure paths) share a table, a row
        # per run and quantity, and a plot per run.
        rows, images, histories = [], [], []
        for r in [r for r in selected if r.case == case]:
            found, forces_file, history = cylinder.analyse(r, os.path.join(work, r.name))
            rows += found
            histories.append(history)
            path, link = report.image_path(doc, f"{r.name}.png")
            cylinder.plot(r, os.path.join(work, r.name), forces_file, path)
            images.append((f"{title}: {r.name}", link))
        if rows:
            families.append((title, " ".join(cylinder.__doc__.split()), rows, images,
                             "\n\n".join(h for h in histories if h)))
    for title, text in pressure_paths.analyse(selected, work):
        families.append((title, " ".join(pressure_paths.__doc__.split()), [], [], text))
    return families


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    which = p.add_mutually_exclusive_group()
    which.add_argument("--quick", dest="set", action="store_const", const="quick", default="",
                       help="small meshes and short times, CPU backend")
    which.add_argument("--cpu-pairs", dest="set", action="store_const", const="cpu-pairs",
                       help="the FFT and PCG pressure paths on a minimal channel and a coarse cylinder-3900, "
                            "CPU backend (its own section)")
    p.add_argument("--backend", choices=["cpu", "cuda"], help="default: cuda, or cpu with --quick or --cpu-pairs")
    p.add_argument("--miniapp", default=os.path.join(ROOT, "build", "release", "miniapp", "miniapp"))
    p.add_argument("--work", help="folder of the runs (default output/validation[-SET])")
    p.add_argument("--doc", default=os.path.join(ROOT, "docs", "validation.md"))
    p.add_argument("--only", default="", help="comma-separated run names; one that names no run selects the runs it starts")
    p.add_argument("--chunk-minutes", type=float, default=9.0, help="wall-clock limit of one miniapp command")
    p.add_argument("--no-run", action="store_true", help="only analyse what the work folder holds")
    p.add_argument("--no-report", action="store_true", help="only run (e.g. on a GPU machine without matplotlib)")
    p.add_argument("--max-minutes", type=float, help="start no chunk that could end later than this many minutes from now")
    p.add_argument("--section", default="", help="report into a section of this name, apart from the set's "
                   "(a later round of some of its runs)")
    p.add_argument("--runs-note", default="", help="with --no-run: how and where the analysed runs were made, for the report")
    args = p.parse_args()
    name, run_set = args.set, runs.SETS[args.set]
    backend = args.backend or ("cpu" if name else "cuda")
    work = os.path.abspath(args.work or os.path.join("output", "validation" + (f"-{name}" if name else "")))
    selected = run_set.runs()
    if args.only:
        selected = select_runs(selected, args.only.split(","))
    if not selected:
        sys.exit(f"--only {args.only}: no run of the set is named so or starts so")

    deadline = time.monotonic() + 60 * args.max_minutes if args.max_minutes else None
    for r in selected:
        if not args.no_run:
            print(f"{r.name}: {r.case} to t = {r.end_time:g}", flush=True)
            try:
                finished = run_in_chunks(args.miniapp, r, work, backend, 60 * args.chunk_minutes,
                                         lambda s: print(s, flush=True), deadline)
            except DoesNotFit as refusal:  # e.g. 384³ on a device of 80 GB: the other runs go on
                print(f"{r.name}: not run on this machine: {refusal}", flush=True)
                continue
            if not finished:
                break
    if args.no_report:
        return

    done = [r for r in selected if os.path.exists(os.path.join(work, r.name, "diagnostics.csv"))]
    for r in selected:
        if r not in done:
            print(f"{r.name}: no output in {work}; left out of the report")
    argv = sys.argv[1:]
    if "--runs-note" in argv:  # the note is printed on its own below
        del argv[argv.index("--runs-note"):argv.index("--runs-note") + 2]
    command = "scripts/validate.py " + " ".join(shlex.quote(a) for a in argv if not a.startswith("--runs-note="))
    date = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d")
    mode = run_set.mode.format(chunk_minutes=args.chunk_minutes)
    runs_note = f" Runs: {args.runs_note}." if args.runs_note else ""
    header = f"{mode}\nDevice: {device_name(backend, work)}; command: `{command}`; date: {date}.{runs_note}"
    runs_text = "Runs (shipped case and overrides):\n\n" + "\n".join(
        f"- `{r.name}`: `{r.case}`, t = {r.end_time:g}" + (f", `{r.description()}`" if r.overrides else "")
        for r in done)
    options = f"--section {args.section}" if args.section else (f"--{name}" if name else "")
    title = f"{run_set.title}: {args.section}" if args.section else run_set.title
    families = analyse(done, work, args.doc, args.section or name)
    report.write(args.doc, report.section(options, title, header, families, runs_text))
    print(f"wrote {args.doc}")


if __name__ == "__main__":
    main()
