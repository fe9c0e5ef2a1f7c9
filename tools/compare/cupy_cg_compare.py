#!/usr/bin/env python3
"""Time to solution of miniapp's pressure solve against CuPy's cupyx.scipy.sparse.linalg.cg on the same
matrix, right-hand side and relative tolerance.

Usage:
  miniapp poisson --backend cuda --cells 64,64,64 --export-matrix P --json ours.json
  python3 tools/compare/cupy_cg_compare.py P ours.json [--repeat 3] [--json compare.json]

P.row_ptr.i32, P.col.i32, P.val.f64, P.rhs.f64 are raw little-endian arrays of -L in miniapp's row
order and b; P.json holds their sizes and the tolerance ||r|| / ||b||. CuPy runs without a
preconditioner and with Jacobi (M = diag(A)^-1 as a LinearOperator), x0 = 0, each timed by CUDA
events around the cg call (matrix already on the device) after one warm-up solve; the median of
--repeat solves is reported. Iterations are counted in a separate solve through the callback, so
the Python callback does not enter the timing. Two comparisons are printed: the solve alone (matrix,
b and preconditioner already on the device: what a time loop pays per step), and the time to
solution from host arrays, where each side adds its own set-up: CuPy the upload of the CSR arrays and
b, the csr_matrix and the inverse diagonal (median of --repeat, synchronised wall time); miniapp its
sELL conversion and upload (upload_seconds) and the preconditioner's set-up. Needs numpy and cupy only.
"""
import argparse
import json
import math
import statistics
import sys

import numpy as np

from exported_system import cg_arguments, load_problem


def import_cupy():
    try:
        import cupy
        import cupyx.scipy.sparse
        import cupyx.scipy.sparse.linalg
    except ImportError as error:
        sys.exit(f"cupy_cg_compare.py: CuPy is not available ({error}); install cupy-cuda12x to run the comparison")
    return cupy, cupyx.scipy.sparse, cupyx.scipy.sparse.linalg


def time_solver(cupy, linalg, a, b, arguments, preconditioner, repeat):
    def solve(callback=None):
        return linalg.cg(a, b, x0=cupy.zeros_like(b), M=preconditioner, callback=callback, **arguments)

    solve()  # warm-up: cuSPARSE handles, kernel compilation and caches
    seconds = []
    for _ in range(repeat):
        start, end = cupy.cuda.Event(), cupy.cuda.Event()
        start.record()
        x, info = solve()
        end.record()
        end.synchronize()
        seconds.append(cupy.cuda.get_elapsed_time(start, end) / 1e3)
    iterations = [0]
    solve(lambda xk: iterations.__setitem__(0, iterations[0] + 1))
    residual = float(cupy.linalg.norm(b - a.dot(x)) / cupy.linalg.norm(b))
    return {"seconds": statistics.median(seconds), "iterations": iterations[0], "relative_residual": residual,
            "info": int(info)}


def device_matrix(cupy, sparse, arrays, n):
    a = sparse.csr_matrix((cupy.asarray(arrays["val"]), cupy.asarray(arrays["col"]), cupy.asarray(arrays["row_ptr"])),
                          shape=(n, n))
    return a, cupy.asarray(arrays["rhs"]), 1.0 / a.diagonal()


def time_setup(cupy, sparse, arrays, n, repeat):
    """Seconds from host arrays to the matrix, b and the inverse diagonal on the device (median)."""
    import time
    seconds = []
    for _ in range(repeat + 1):  # the first (allocator and handle warm-up) is dropped
        cupy.cuda.Device().synchronize()
        start = time.perf_counter()
        device_matrix(cupy, sparse, arrays, n)
        cupy.cuda.Device().synchronize()
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds[1:])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("prefix", help="the --export-matrix PREFIX of miniapp poisson")
    parser.add_argument("ours", help="the --json file of the same miniapp poisson run")
    parser.add_argument("--repeat", type=int, default=3, help="timed solves per solver (median)")
    parser.add_argument("--json", help="also write the comparison to this file")
    args = parser.parse_args()

    meta, arrays = load_problem(args.prefix)
    with open(args.ours) as f:
        ours = json.load(f)
    same_sizes = (ours["rows"], ours["nnz"]) == (meta["rows"], meta["nnz"])
    if not same_sizes or not math.isclose(ours["tolerance"], meta["tolerance"]):
        sys.exit(f"cupy_cg_compare.py: {args.ours} is not the run that exported {args.prefix} "
                 "(sizes or tolerance differ)")
    cupy, sparse, linalg = import_cupy()
    n = meta["rows"]
    a, b, inverse_diagonal = device_matrix(cupy, sparse, arrays, n)
    setup = time_setup(cupy, sparse, arrays, n, args.repeat)
    jacobi = linalg.LinearOperator((n, n), matvec=lambda v: inverse_diagonal * v, dtype=np.float64)
    arguments = cg_arguments(linalg, meta["tolerance"], meta["max_iterations"])

    cupy_results = {"none": time_solver(cupy, linalg, a, b, arguments, None, args.repeat),
                    "jacobi": time_solver(cupy, linalg, a, b, arguments, jacobi, args.repeat)}
    print(f"matrix {meta['mesh']}: {n} rows, {meta['nnz']} non-zeros; ||r||/||b|| <= {meta['tolerance']:g}")
    print(f"{'solver':28s}{'iterations':>11s}{'solve (ms)':>12s}{'setup+solve (ms)':>18s}{'residual':>11s}")
    for name, r in cupy_results.items():
        r["setup_seconds"] = setup
        print(f"{'cupy cg, M = ' + name:28s}{r['iterations']:11d}{1e3 * r['seconds']:12.2f}"
              f"{1e3 * (setup + r['seconds']):18.2f}{r['relative_residual']:11.2e}")
    upload = ours.get("upload_seconds", 0.0)
    for r in ours["results"]:
        total = upload + r["setup_seconds"] + r["solve_seconds"]
        print(f"{'miniapp pcg, ' + r['preconditioner']:28s}{r['iterations']:11d}{1e3 * r['solve_seconds']:12.2f}"
              f"{1e3 * total:18.2f}{r['relative_residual']:11.2e}")
    best_cupy_solve = min(r["seconds"] for r in cupy_results.values())
    best_ours_solve = min(r["solve_seconds"] for r in ours["results"] if r["converged"])
    best_cupy_total = setup + best_cupy_solve
    best_ours_total = upload + min(r["setup_seconds"] + r["solve_seconds"] for r in ours["results"] if r["converged"])
    speedup = best_cupy_solve / best_ours_solve
    print(f"\nsolve only: best CuPy {1e3 * best_cupy_solve:.2f} ms / best miniapp {1e3 * best_ours_solve:.2f} ms"
          f" = {speedup:.2f}x (target >= 2x)")
    print(f"from host arrays, each side's set-up included: {1e3 * best_cupy_total:.2f} ms / {1e3 * best_ours_total:.2f}"
          f" ms = {best_cupy_total / best_ours_total:.2f}x; miniapp device: {ours['device']}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"matrix": meta, "cupy": cupy_results, "miniapp": ours, "speedup_solve": speedup,
                       "speedup_from_host": best_cupy_total / best_ours_total}, f, indent=2)


if __name__ == "__main__":
    main()
