"""The generated sections of docs/validation.md: one table per case family (a row per run and quantity),
its plots beside it. Each set of runs (the full one, --quick, --cpu-pairs) has its own section
between its own markers, which a new report of that set replaces, so the page always shows each set's
latest validation; a round that reruns part of a set on another day (--section) has a section of its
own, so that it does not erase the runs it did not redo."""
import os
import re


def _markers(options):
    """The section's first and last lines, named by the options that select it ("--quick", "--section
    NAME"); the full set's (no options) are those of the first reports."""
    command = "scripts/validate.py" + (f" {options}" if options else "")
    return f"<!-- {command}: begin (generated; do not edit by hand) -->", f"<!-- {command}: end -->"


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
    notes = list(dict.fromkeys(f"{r.run}: {r.note}" for r in rows if r.note))  # each run's, in the table's order
    return "\n".join(lines + ([""] + [f"- {n}" for n in notes] if notes else []))


def section(options, title, header, families, runs_text):
    """options: what names the section (see _markers); header: device, command, date lines; families:
    [(title, intro, rows, images, extra)], images a list of (alt text, link)."""
    begin, end = _markers(options)
    parts = [begin, f"## {title}", "", header, "", runs_text]
    for title, intro, rows, images, extra in families:
        parts += ["", f"### {title}", "", intro]
        if rows:
            parts += ["", table(rows)]
        if extra:
            parts += ["", extra]
        for alt, link in images:
            parts += ["", f"![{alt}]({link})"]
    parts += [end]
    return "\n".join(parts) + "\n"


def write(doc_path, text):
    """Replaces the section of `doc_path` that has the markers `text` begins and ends with, or appends
    `text` when the page has none yet."""
    with open(doc_path) as f:
        page = f.read()
    lines = text.rstrip("\n").split("\n")
    pattern = re.compile(re.escape(lines[0]) + ".*?" + re.escape(lines[-1]) + "\n?", re.S)
    page = pattern.sub(lambda _: text, page) if pattern.search(page) else page.rstrip("\n") + "\n\n" + text
    with open(doc_path, "w") as f:
        f.write(page)


def image_path(doc_path, name):
    """(file path, link relative to the page) of a plot in the page's validation/ folder."""
    folder = os.path.join(os.path.dirname(doc_path), "validation")
    os.makedirs(folder, exist_ok=True)
    return os.path.join(folder, name), f"validation/{name}"
