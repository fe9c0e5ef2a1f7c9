"""Readers: miniapp's diagnostics.csv, checkpoints and the statistics CSV files, and the reference data
in tests/data (README there cites each file)."""
import csv
import glob
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REFERENCE = os.path.join(ROOT, "tests", "data")
sys.path.insert(0, os.path.join(ROOT, "scripts"))
from validate_cavity import read_checkpoint  # noqa: E402  (the checkpoint layout, read in one place)


def read_csv_columns(path):
    """A CSV file with a header line as {column: [float, ...]}."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(line for line in f if not line.startswith("#")))
    return {key.strip(): [float(r[key]) for r in rows] for key in (rows[0].keys() if rows else [])}


def read_diagnostics(path):
    """diagnostics.csv: one row per step (docs/running.md, Output)."""
    columns = read_csv_columns(path)
    return columns if columns else {"step": [], "time": [], "dt": [], "wall_seconds": []}


def read_columns(path):
    """Whitespace-separated numbers, '#' comments skipped: a list of rows."""
    with open(path) as f:
        return [[float(v) for v in line.split()] for line in f if line.strip() and not line.startswith("#")]


def taylor_green_reference():
    """(t, E, -dE/dt) of the 512³ spectral DNS at Re 1600."""
    rows = read_columns(os.path.join(REFERENCE, "taylor_green_re1600", "spectral_Re1600_512.gdiag"))
    return [r[0] for r in rows], [r[1] for r in rows], [r[2] for r in rows]


def channel_reference():
    """Moser, Kim & Mansour's Re_τ 178.12 channel: y⁺, U⁺ and the variances R_uu, R_vv, R_ww, R_uv."""
    means = read_columns(os.path.join(REFERENCE, "channel_re180_mkm1999", "chan180.means"))
    stress = read_columns(os.path.join(REFERENCE, "channel_re180_mkm1999", "chan180.reystress"))
    return {"re_tau": 178.12, "y_plus": [r[1] for r in means], "u_plus": [r[2] for r in means],
            "uu": [r[2] for r in stress], "vv": [r[3] for r in stress], "ww": [r[4] for r in stress],
            "uv": [r[5] for r in stress]}


def statistics_file(out, pattern):
    """The newest file of the statistics observers matching `pattern` in `out`, or None."""
    found = sorted(glob.glob(os.path.join(out, pattern)), key=os.path.getmtime)
    return found[-1] if found else None


def newest_checkpoint_step(out):
    """The step of the newest complete checkpoint generation in `out` (its marker
    checkpoint_<step>.complete written), or None."""
    steps = [int(f[len("checkpoint_"):-len(".complete")]) for f in os.listdir(out)
             if f.startswith("checkpoint_") and f.endswith(".complete")]
    return max(steps) if steps else None


def checkpoint(out):
    """(step, time, {array: values}) of the run's newest complete checkpoint (one rank)."""
    step = newest_checkpoint_step(out)
    if step is None:
        sys.exit(f"{out}: no complete checkpoint")
    return read_checkpoint(os.path.join(out, f"checkpoint_{step}_r0.bin"))


def case_settings(case, overrides):
    """The case file's settings with the run's --set overrides applied (as miniapp does, key by key)."""
    import tomllib
    with open(os.path.join(ROOT, "cases", case + ".toml"), "rb") as f:
        settings = tomllib.load(f)
    for o in overrides:
        key, value = o.split("=", 1)
        *tables, last = key.split(".")
        node = settings
        for t in tables:
            node = node.setdefault(t, {})
        try:
            node[last] = tomllib.loads(f"v = {value}")["v"]
        except tomllib.TOMLDecodeError:
            node[last] = value  # a bare string, as --set accepts it
    return settings
