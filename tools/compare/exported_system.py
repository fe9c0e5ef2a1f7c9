"""The system `miniapp poisson --export-matrix PREFIX` writes, read back for the comparison scripts:
PREFIX.row_ptr.i32, PREFIX.col.i32, PREFIX.val.f64, PREFIX.rhs.f64 (raw little-endian arrays of -L in
miniapp's row order and b) and PREFIX.json (their sizes and the tolerance ||r|| / ||b||)."""
import inspect
import json
import os
import sys

import numpy as np


def load_problem(prefix):
    """(meta, arrays): the .json's fields, and row_ptr, col, val and rhs as numpy arrays."""
    with open(prefix + ".json") as f:
        meta = json.load(f)
    rows, nnz = meta["rows"], meta["nnz"]
    arrays = {}
    for name, dtype, size in (("row_ptr.i32", "<i4", rows + 1), ("col.i32", "<i4", nnz),
                              ("val.f64", "<f8", nnz), ("rhs.f64", "<f8", rows)):
        path = f"{prefix}.{name}"
        data = np.fromfile(path, dtype=dtype)
        if data.size != size:
            sys.exit(f"{os.path.basename(sys.argv[0])}: {path}: {data.size} values, {prefix}.json says {size}")
        arrays[name.split(".")[0]] = data
    return meta, arrays


def cg_arguments(linalg, tolerance, max_iterations):
    """SciPy 1.12 (and CuPy) renamed cg's tol to rtol; atol = 0 makes the test ||r|| <= rtol ||b||."""
    params = inspect.signature(linalg.cg).parameters
    arguments = {"rtol" if "rtol" in params else "tol": tolerance, "maxiter": max_iterations}
    if "atol" in params:
        arguments["atol"] = 0.0
    return arguments
