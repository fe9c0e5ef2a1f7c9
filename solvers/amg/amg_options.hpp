#pragma once
#include "core/types.hpp"

namespace miniapp::amg {

// How the hierarchy is built and cycled (docs/amg.md says why these defaults).
struct AmgOptions {
  // Strength of connection: j is a strong neighbour of i when |a_ij| ≥ θ_l √(a_ii a_jj), θ_l = θ / 2^l on
  // level l (0 the finest).
  double strength_threshold = 0.08;
  // Smoothed aggregation, P = (I − ω D⁻¹ A) T with ω = 4 / (3 λmax(D⁻¹A)); false: plain aggregation, P = T.
  bool smoothed = true;
  // Chebyshev smoother on D⁻¹A: polynomial degree per smoothing (1 is damped Jacobi), and the interval
  // [λmax / ratio, λmax] whose eigencomponents it damps (the coarse grid takes those below).
  int smoother_degree = 1;
  double smoother_ratio = 10;
  // The hierarchy stops at a level of at most this many rows (or when coarsening stalls), solved by its
  // dense (pseudo-)inverse stored as a matrix, so that the coarse solve is one SpMV.
  index_t coarse_rows = 400;
  // On several ranks: the first level below the finest with at most this many rows over all ranks is
  // gathered whole onto every rank at set-up, and the levels below it are built from it on every rank
  // alike (build_hierarchy), so that the cycle's part from there down is one all-gather and no halo
  // update (docs/amg.md, "Several ranks", says why this default). At most coarse_rows: only the
  // coarsest level is gathered. One rank has no use for it.
  index_t redundant_rows = 100000;
  int max_levels = 25;
  // The hierarchy's matrices (A_l, P_l, R_l, the coarse inverse) with float values; vectors stay double.
  // The default: the same iterations for a sixth fewer bytes, faster steps on both backends (docs/amg.md).
  bool float_storage = true;
};

}  // namespace miniapp::amg
