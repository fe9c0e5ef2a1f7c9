#!/usr/bin/env python3
"""Per run of ab.sh: the step's error, the solve's, and the explicit sub-steps' (every phase but the
Poisson solve, summed) predicted against measured, from each report's 'Predicted against measured'."""
import glob, os, re, sys
root = sys.argv[1] if len(sys.argv) > 1 else '.'
rows = []
for path in sorted(glob.glob(os.path.join(root, '*_r*', '*.txt'))):
    text = open(path).read()
    if 'Predicted against measured' not in text:
        continue
    table = text.split('## Predicted against measured', 1)[1].split('\n## ', 1)[0]
    explicit_pred = explicit_meas = 0.0
    solve = step = None
    for line in table.splitlines():
        cells = [c.strip(' *') for c in line.strip().strip('|').split('|')]
        if len(cells) < 6 or not re.match(r'^[\d.]+$', cells[1] or 'x'):
            continue
        pred, meas, err = float(cells[1]), float(cells[3]), cells[5]
        if cells[0].startswith('2.2'):
            solve = err
        elif cells[0] == 'step (wall time)':
            step = err
        elif cells[0][0].isdigit():
            explicit_pred += pred
            explicit_meas += meas
    run = os.path.relpath(path, root)
    rows.append(f'{run:40s} step {step:>8s}   solve {solve:>8s}   sub-steps {explicit_pred:.3f} / {explicit_meas:.3f} ms '
                f'({100 * (explicit_pred / explicit_meas - 1):+.1f} %)')
print('\n'.join(rows))
