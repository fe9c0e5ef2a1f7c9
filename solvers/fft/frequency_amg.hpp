#pragma once
#include <memory>
#include <string>
#include <vector>

#include "solvers/amg/amg_options.hpp"
#include "solvers/fft/batched_kernels.hpp"

namespace miniapp::fft {

struct ShiftedSystems;

// The hierarchies' options for the frequency systems (degree-1 smoother only: damped Jacobi). The
// coarsest level's dense inverse is read once per frequency and cycle; up to 256 rows it moves about
// the bytes of one more level with fewer kernel launches (docs/fft-poisson.md).
inline amg::AmgOptions frequency_amg_options() { return {.coarse_rows = 256}; }

// Smoothed-aggregation AMG (docs/amg.md) for the consecutive systems `range` of a batch of shifted
// systems (A + σ_s W) x_s = b_s (solvers/fft/frequency_preconditioner.hpp), one symmetric V-cycle from
// zero per apply, every system of the range at once: the hierarchy is built once on the host from
// A + σ₀ W, σ₀ the range's smallest shift, and each level l keeps the shifted form
// A_l + (σ_s − σ₀) diag(w_l), w_l the row sums of |R| W |P| (the coarse shift lumped and kept
// positive, frequency_amg.cpp; exact on the finest level, where w_0 = w). So every kernel is one of
// the batched front ends (shifted SpMV, Jacobi, direction, the transfers by the plain batched SpMV), each level's matrices
// are read once for all systems of the range, and the cycle runs on every backend. The smoother is
// damped Jacobi of the system's own shifted diagonal with the ω of σ₀ (safe for larger shifts: a
// positive diagonal shift does not raise λmax(D⁻¹A) above the bound when it is ≥ 1). The coarsest
// level is solved by the dense (pseudo-)inverse of its shifted matrix, one per distinct shift of the
// range. On several ranks the hierarchy is built on the owned × owned block (block Jacobi across
// ranks, like the AIP factors). Throws miniapp::Error for a smoother degree other than 1.
class FrequencyAmg {
 public:
  // `systems` must outlive this; owned_rows: the leading rows of A this rank owns. Throws
  // miniapp::Error from amg::build_hierarchy naming what is wrong.
  FrequencyAmg(const Executor& exec, const ShiftedSystems& systems, SystemRange range, index_t owned_rows,
               const amg::AmgOptions& options);
  ~FrequencyAmg();

  // z_s = M_s r_s for the systems of the range inside `active`; t and y: work vectors of rows · S
  // entries, distinct from r, z and each other. Only those systems of z, t and y are written.
  void apply(const Vector& r, Vector& z, Vector& t, Vector& y, SystemRange active) const;
  SystemRange range() const { return range_; }
  // Rows per level, finest first.
  const std::vector<index_t>& level_rows() const { return rows_; }

 private:
  struct Level;
  struct Coarse;
  void cycle(std::size_t l, const Vector& b, Vector& x, Vector& t, Vector& y, SystemRange range) const;

  Executor exec_;
  SystemRange range_;
  index_t stride_;             // of the systems' vectors (ShiftedSystems::stride)
  Vector shifts_;              // σ_s − σ₀ (0 outside the range)
  Vector plus_one_, minus_one_;  // β of batched_direction: x ← t + x, t ← b − t
  std::vector<std::unique_ptr<Level>> levels_;  // all but the coarsest
  std::vector<Coarse> coarse_;                  // per distinct shift of the range
  std::vector<index_t> rows_;
};

}  // namespace miniapp::fft
