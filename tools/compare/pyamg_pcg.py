#!/usr/bin/env python3
"""pyamg's smoothed-aggregation AMG as the preconditioner of SciPy's CG, on a system that
`miniapp poisson --export-matrix PREFIX` wrote: the reference implementation of the method miniapp's
AMG follows (smoothed aggregation, Vaněk, Mandel and Brezina 1996), on one CPU thread.

Usage:
  OMP_NUM_THREADS=1 python3 tools/compare/pyamg_pcg.py PREFIX [--repeat 3]

pyamg.smoothed_aggregation_solver with its defaults (symmetric strength of connection, standard
aggregation, Jacobi-smoothed prolongation, symmetric Gauss-Seidel pre- and post-smoothing, a
pseudo-inverse on the coarsest level; the constant vector as the near null space) but a coarsest level
of up to --max-coarse rows (default 300, where pyamg's is 10): on a prism mesh its default left a 2 x 2
singular coarsest matrix whose pseudo-inverse made CG diverge. One V-cycle is M;
CG from x = 0 until ||r|| / ||b|| falls below the exported tolerance, as miniapp's PCG stops, or
--max-iter iterations. Prints
per repeat the set-up and solve wall times, the iterations, the final relative residual and the
hierarchy's levels and operator complexity, then the medians. Needs numpy, scipy and pyamg (PyPI).
"""
import argparse
import statistics
import sys
import time

import numpy as np

from exported_system import cg_arguments, load_problem


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("prefix", help="the --export-matrix PREFIX of miniapp poisson")
    parser.add_argument("--repeat", type=int, default=3, help="set-ups and solves (medians reported)")
    parser.add_argument("--max-iter", type=int, default=500, help="CG's iteration cap")
    parser.add_argument("--max-coarse", type=int, default=300, help="the most rows of the coarsest level")
    args = parser.parse_args()
    try:
        import pyamg
        import scipy.sparse
        import scipy.sparse.linalg
    except ImportError as error:
        sys.exit(f"pyamg_pcg.py: {error}; install pyamg (pip) to run the comparison")

    meta, arrays = load_problem(args.prefix)
    n = meta["rows"]
    a = scipy.sparse.csr_matrix((arrays["val"], arrays["col"], arrays["row_ptr"]), shape=(n, n))
    b = arrays["rhs"]
    arguments = cg_arguments(scipy.sparse.linalg, meta["tolerance"], args.max_iter)
    print(f"pyamg {pyamg.__version__} smoothed aggregation + SciPy {scipy.__version__} CG, matrix {meta['mesh']}: "
          f"{n} rows, {meta['nnz']} non-zeros; ||r||/||b|| <= {meta['tolerance']:g}")
    print(f"{'repeat':>8s}{'levels':>8s}{'complexity':>12s}{'setup (s)':>12s}{'iterations':>12s}{'solve (s)':>12s}"
          f"{'residual':>12s}")
    setups, solves = [], []
    for repeat in range(args.repeat):
        # The spectral radius estimate behind the prolongation's smoothing starts from a random vector:
        # seeded, each repeat's hierarchy is reproducible (unseeded, one set-up of several stalled CG).
        np.random.seed(repeat)
        start = time.perf_counter()
        hierarchy = pyamg.smoothed_aggregation_solver(a, max_coarse=args.max_coarse)
        preconditioner = hierarchy.aspreconditioner(cycle="V")
        setup = time.perf_counter() - start
        iterations = [0]
        start = time.perf_counter()
        x, info = scipy.sparse.linalg.cg(a, b, x0=np.zeros(n), M=preconditioner,
                                         callback=lambda xk: iterations.__setitem__(0, iterations[0] + 1), **arguments)
        solve = time.perf_counter() - start
        residual = float(np.linalg.norm(b - a @ x) / np.linalg.norm(b))
        print(f"{repeat + 1:8d}{len(hierarchy.levels):8d}{hierarchy.operator_complexity():12.2f}{setup:12.4f}"
              f"{iterations[0]:12d}{solve:12.4f}{residual:12.2e}" + ("" if info == 0 else "  NOT converged"))
        setups.append(setup)
        solves.append(solve)
    setup, solve = statistics.median(setups), statistics.median(solves)
    print(f"median   setup {setup:.4f} s, solve {solve:.4f} s, total {setup + solve:.4f} s")


if __name__ == "__main__":
    main()
