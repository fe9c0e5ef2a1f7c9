#pragma once
#include <vector>

#include "operators/sparse/csr_matrix.hpp"

namespace miniapp::fft {

struct BatchedPcgOptions {
  double tolerance = 1e-8;  // system s stops when ‖r_s‖₂ ≤ tolerance · ‖b_s‖₂
  int max_iterations = 1000;
};

struct BatchedPcgResult {
  std::vector<int> iterations;            // per system
  std::vector<double> relative_residual;  // per system, of the recursively updated residual
  bool converged = false;                 // all systems
};

// Jacobi-PCG for S shifted systems (A + σ_s W) x_s = b_s, s = 0..S−1, sharing one sparse A (N × N,
// symmetric positive semi-definite) and one diagonal W ≥ 0 (thesis §4.3, Algorithm 3): the unified
// structure stores A once and the batched SpMV reads each coefficient once for all active systems.
// Vectors are interleaved, system fastest: x[c · S + s]. Each system stops at its own tolerance and
// drops out (α = β = 0 freezes it; the loop bound shrinks to the last active system, so order the
// systems by increasing σ, which converge more slowly). A system with σ_s = 0 and `singular_at_zero`
// has the constants as null space: its b is projected to zero mean, and so is its solution.
// Host code on std::vector, one thread; the work vectors are allocated once.
class BatchedPcg {
 public:
  BatchedPcg(CsrMatrix a, std::vector<double> w, std::vector<double> shifts, bool singular_at_zero);

  index_t rows() const { return a_.rows; }
  index_t systems() const { return static_cast<index_t>(shifts_.size()); }

  // Solves from x = 0; b and x have rows() · systems() entries. b is projected in place where singular.
  BatchedPcgResult solve(std::vector<double>& b, std::vector<double>& x, const BatchedPcgOptions& options);

 private:
  void spmv(const std::vector<double>& p, std::vector<double>& q, index_t active) const;
  std::vector<double> column_dots(const std::vector<double>& u, const std::vector<double>& v, index_t active) const;
  void remove_mean(std::vector<double>& v, index_t s) const;

  CsrMatrix a_;
  std::vector<double> w_, shifts_;
  std::vector<double> inverse_diagonal_;  // 1 / (A_cc + σ_s W_c), interleaved like the vectors
  std::vector<bool> singular_;
  std::vector<double> r_, z_, p_, q_;
};

}  // namespace miniapp::fft
