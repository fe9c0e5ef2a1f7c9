"""The generated section of docs/validation.md: one table per case family (a row per run and quantity),
its plots beside it. A new run replaces the section (between the markers), so the page always shows
the latest validation."""
import os
import re

BEGIN = "<!-- scripts/validate.py: begin (generated; do not edit by hand) -->"
END = "<!-- scripts/validate.py: end -->"


def _number(x):
    return "—" if x is None else f"{x:.4g}"


def table(rows):
    lines = ["| run | quantity | computed | reference | relative error | target | |",
             "| --- | --- | ---: | ---: | ---: | ---: | --- |"]
    for r in rows:
        e = r.error()
        lines.append(f"| {r.run} | {r.quantity} | {_number(r.computed)} | {r.reference_text()} | "
                     f"{'—' if e is None else f'{100 * e:+.1f} %'} | "
                     f"{'—' if r.tolerance is None else f'±{100 * r.tolerance:g} %'} | {r.verdict()} |")
    notes = sorted({r.note for r in rows if r.note})
    return "\n".join(lines + ([""] + [f"- {n}" for n in notes] if notes else []))


def section(header, families, runs_text):
    """header: device, command, date lines; families: [(title, intro, rows, images, extra)], images a
    list of (alt text, link)."""
    parts = [BEGIN, "## Turbulent cases against published data", "", header, "", runs_text]
    for title, intro, rows, images, extra in families:
        parts += ["", f"### {title}", "", intro]
        if rows:
            parts += ["", table(rows)]
        if extra:
            parts += ["", extra]
        for alt, link in images:
            parts += ["", f"![{alt}]({link})"]
    parts += [END]
    return "\n".join(parts) + "\n"


def write(doc_path, text):
    """Replaces the generated section of `doc_path`, or appends it when the page has none yet."""
    with open(doc_path) as f:
        page = f.read()
    pattern = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END) + "\n?", re.S)
    page = pattern.sub(lambda _: text, page) if pattern.search(page) else page.rstrip("\n") + "\n\n" + text
    with open(doc_path, "w") as f:
        f.write(page)


def image_path(doc_path, name):
    """(file path, link relative to the page) of a plot in the page's validation/ folder."""
    folder = os.path.join(os.path.dirname(doc_path), "validation")
    os.makedirs(folder, exist_ok=True)
    return os.path.join(folder, name), f"validation/{name}"
