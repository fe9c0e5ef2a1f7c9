#pragma once
#include <functional>
#include <iosfwd>
#include <string>
#include <vector>

#include "miniapp/predict/calibration.hpp"
#include "solvers/pcg.hpp"

namespace miniapp::predict {

struct IterationCalibrationSettings {
  // Rows of the systems: the 7-point stencil for Pcg; for the batched systems, 2D rows × systems.
  // Empty: the default of the executor's backend, 2¹⁰ to 2²⁰ rows (2²² on a GPU) in 2× steps (twice
  // as dense as the SpMV curves' sizes: an iteration's cost per byte steps down where its working set
  // (matrix, preconditioner, vectors, reused every iteration) leaves the cache, and a case between two
  // sizes is priced on a blend of both, so few cases should fall between one inside and one outside).
  std::vector<index_t> rows;
  index_t batched_systems = 64;  // the frequency systems of a 64-layer extrusion, about (fewer on
                                 // the smallest sizes: planes keep at least 64 rows)
  // Plane rows of the batches whose iterations are timed by the width of their range and with an AMG
  // block (calibrate_batched_costs); empty: its backend's default.
  std::vector<index_t> width_planes;
  int repeat = 9;                // timed pairs of solves per point (median)
  int short_solve = 16;          // iterations of the two solves (multiples of the check interval, so
  int long_solve = 48;           // that both replay whole batches)
};

// The default rows of the iteration units on `backend`: 2¹⁰ to 2²⁰ (2²² on a GPU) in 2× steps.
std::vector<index_t> default_iteration_rows(Backend backend);

// The default plane rows of calibrate_batched_costs on `backend`: 2¹⁰ to 2¹⁴ (2¹⁶ on a GPU) in 2×
// steps, the planes of the FFT path's cases (a 48 × 48 channel plane is 2304 rows, a 256² one 65 536):
// an AMG block's cost per byte follows its hierarchy's levels, which change with the plane's size.
std::vector<index_t> default_width_planes(Backend backend);

// A solve of a given iteration count: returns the iterations it ran (set-up untimed by the caller).
using Solve = std::function<int(int iterations)>;

// Options of a PCG solve that runs exactly `iterations` iterations (tolerance 0, never met).
PcgOptions exactly(int iterations);

// One point of a unit's curve: bytes, seconds and calls per iteration, by the difference of a solve
// of s.long_solve iterations and one of s.short_solve (wall time; counted bytes and calls of exec's
// counters), the median over s.repeat pairs. Throws miniapp::Error naming `what` when a solve stops
// early.
CostPoint iteration_point(const Executor& exec, const IterationCalibrationSettings& s, const Solve& solve,
                          const std::string& what);

// One curve per IterationUnit: seconds per iteration against the bytes per iteration the counters add
// (each point with the calls per iteration they add),
// from the solver itself on stencil systems (stencil_matrix; random right-hand sides, tolerance 0 so
// that every solve runs its iteration cap): the median over `repeat` pairs of the wall time of a solve
// of long_solve iterations less one of short_solve (the set-up cancels), per iteration. The solvers run
// with their defaults (check interval, graphs), as in the time loop, on any backend. Throws
// miniapp::Error when a solve stops early (breakdown).
// Progress goes to `log`; adds to exec's counters.
std::array<std::optional<CostCurve>, iteration_unit_count> calibrate_iterations(
    const Executor& exec, const IterationCalibrationSettings& settings, std::ostream& log);

struct BatchedCosts {
  std::vector<WidthPoint> widths;      // Calibration::batched_widths
  std::vector<WidthPoint> amg_blocks;  // Calibration::batched_amg_blocks
};

// On each plane of settings.width_planes (the 2D stencil), the batched PCG of settings.batched_systems
// systems timed as iteration_point does: the widths with a right-hand side in the first w systems
// only (the others zero, stopped from the start), w = all of them, half, a quarter, … down to one,
// each point its seconds per counted byte over those of w = all; and AMG's V-cycle on the first block
// (FrequencyPreconditioner's default blocks) timed alone, its seconds per counted byte over those of
// the iteration over all the systems. Progress goes to `log`; adds to exec's counters.
BatchedCosts calibrate_batched_costs(const Executor& exec, const IterationCalibrationSettings& settings,
                                     std::ostream& log);

}  // namespace miniapp::predict
