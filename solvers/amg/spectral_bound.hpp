#pragma once
#include <functional>
#include <vector>

#include "operators/sparse/csr_matrix.hpp"

namespace miniapp::amg {

// The largest eigenvalue of D⁻¹A (D = diag(A), a symmetric with positive diagonal `d`), estimated by
// power iterations on the symmetric D^-½ A D^-½ from a fixed pseudo-random start, scaled by a 1.1
// safety factor (power iterations approach it from below) and capped by Gershgorin's bound
// max_i Σ_j |a_ij| / a_ii, which it cannot exceed.
// With `split`, `a` holds this rank's rows of a matrix split over ranks, its columns the level's local
// entries (owned, then halo), d its diagonal on those entries: the bound is then the whole matrix's,
// the same on every rank (collective).
struct RankSplit {
  std::function<double(double)> sum, max;                 // over the ranks
  std::function<void(std::vector<double>&)> update_halo;  // a local vector's halo entries from their owners
};
double largest_eigenvalue_bound(const CsrMatrix& a, const std::vector<double>& d, const RankSplit* split = nullptr);

// The power iterations' most steps and the safety factor (also device_eigenvalue_bound's).
inline constexpr int power_iterations = 15;
inline constexpr double bound_safety = 1.1;

}  // namespace miniapp::amg
