// AMG V-cycle over a range of shifted frequency systems, written with the batched front ends only.
#include "solvers/fft/frequency_amg.hpp"

#include <algorithm>
#include <cmath>

#include "solvers/amg/coarse_inverse.hpp"
#include "solvers/amg/hierarchy.hpp"
#include "solvers/distributed_pcg.hpp"
#include "solvers/fft/frequency_preconditioner.hpp"

namespace miniapp::fft {

namespace {

// y = |A| x on the host (A's entries by their magnitude).
std::vector<double> multiply_magnitudes(const CsrMatrix& a, const std::vector<double>& x) {
  std::vector<double> y(static_cast<std::size_t>(a.rows), 0.0);
  for (index_t i = 0; i < a.rows; ++i)
    for (index_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) y[i] += std::abs(a.val[k]) * x[a.col[k]];
  return y;
}

// The row sums of |R| diag(w) |P|: |R| (w ∘ |P| 1). Where P ≥ 0 these are the row sums of the
// Galerkin product R diag(w) P (exact on the constants). Where the shift outweighs the in-plane
// coupling, the smoothed prolongation's Jacobi step overshoots and P has negative entries; the
// Galerkin row sums may then vanish or turn negative, and the shifted systems of the block would lose
// their definiteness on the coarse levels. The magnitudes keep the lumped w positive.
std::vector<double> lumped_coarse_w(const amg::HostLevel& level, const std::vector<double>& w) {
  const CsrMatrix& p = level.prolongation.host;  // a hierarchy built on the host: every matrix there
  std::vector<double> weighted = multiply_magnitudes(p, std::vector<double>(p.cols, 1.0));
  for (std::size_t i = 0; i < weighted.size(); ++i) weighted[i] *= w[i];
  return multiply_magnitudes(level.restriction.host, weighted);
}

std::vector<double> scaled(std::vector<double> v, double factor) {
  for (double& x : v) x *= factor;
  return v;
}

}  // namespace

// A level above the coarsest on the executor: A_l (built at σ₀), its diagonal and lumped w (for the
// shifted SpMV), the same divided by the smoother's ω (Jacobi's z = ω r / (d + Δσ w)), the transfers
// to level l + 1, and level l + 1's vectors (b, x and two work vectors, rows · S each).
struct FrequencyAmg::Level {
  DeviceCsr a;
  Vector diagonal, w, smoother_diagonal, smoother_w;
  DeviceCsr restriction, prolongation;
  mutable Vector coarse_b, coarse_x, coarse_t, coarse_y;

  ShiftedView view(const Vector& shifts) const { return {a, diagonal, w, shifts}; }
  ShiftedView smoother(const Vector& shifts) const { return {a, smoother_diagonal, smoother_w, shifts}; }
};

struct FrequencyAmg::Coarse {
  SystemRange systems;  // those of one shift
  DeviceCsr inverse;    // of A_c + (σ_s − σ₀) diag(w_c)
};

FrequencyAmg::FrequencyAmg(const Executor& exec, const ShiftedSystems& systems, SystemRange range, index_t owned_rows,
                           const amg::AmgOptions& options)
    : exec_(exec), range_(range), stride_(systems.stride()) {
  if (options.smoother_degree != 1)
    throw Error("FFT Poisson: the frequency systems' AMG smooths by damped Jacobi (degree 1), not degree " +
                std::to_string(options.smoother_degree));
  const std::vector<double>& sigma = systems.host_shifts;
  const double sigma0 = sigma[range.begin];
  std::vector<double> shifts(static_cast<std::size_t>(stride_), 0.0);
  for (index_t s = range.begin; s < range.end; ++s) shifts[s] = sigma[s] - sigma0;
  shifts_ = Vector::from_host(exec, shifts);
  plus_one_ = Vector::from_host(exec, std::vector<double>(static_cast<std::size_t>(stride_), 1.0));
  minus_one_ = Vector::from_host(exec, std::vector<double>(static_cast<std::size_t>(stride_), -1.0));

  const CsrMatrix a = owned_rows < systems.rows() ? block_of_owned_rows(systems.host_a, owned_rows) : systems.host_a;
  const amg::HostHierarchy h = amg::build_hierarchy(shifted_matrix(a, systems.host_w, sigma0), options);
  std::vector<double> w = systems.host_w;
  const double smoother_interval = 1 + 1 / options.smoother_ratio;
  for (const amg::HostLevel& host : h.levels) {
    const double omega = 2 / (host.lambda_max * smoother_interval);  // degree-1 Chebyshev: damped Jacobi
    const index_t coarse = host.coarse_rows(), n = batched_size(coarse, stride_);
    levels_.push_back(std::make_unique<Level>(Level{
        DeviceCsr(exec, host.a.host), Vector::from_host(exec, host.diagonal), Vector::from_host(exec, w),
        Vector::from_host(exec, scaled(host.diagonal, 1 / omega)), Vector::from_host(exec, scaled(w, 1 / omega)),
        DeviceCsr(exec, host.restriction.host), DeviceCsr(exec, host.prolongation.host), Vector(exec, n), Vector(exec, n),
        Vector(exec, n), Vector(exec, n)}));
    rows_.push_back(host.rows());
    w = lumped_coarse_w(host, w);
  }
  rows_.push_back(h.coarsest.rows);
  for (index_t s = range.begin; s < range.end;) {
    index_t end = s + 1;
    while (end < range.end && sigma[end] == sigma[s]) ++end;
    const CsrMatrix inverse =
        shifts[s] == 0 ? h.coarse_inverse : amg::dense_pseudo_inverse(shifted_matrix(h.coarsest, w, shifts[s]));
    coarse_.push_back({{s, end}, DeviceCsr(exec, inverse)});
    s = end;
  }
}

FrequencyAmg::~FrequencyAmg() = default;

void FrequencyAmg::apply(const Vector& r, Vector& z, Vector& t, Vector& y, SystemRange active) const {
  const SystemRange range = intersection(range_, active);
  if (range.size() > 0) cycle(0, r, z, t, y, range);
}

// x = V(b) from x = 0 on level l: smooth, restrict the residual, recurse, prolong and add the
// correction, smooth again (the same smoother both times: a symmetric cycle).
void FrequencyAmg::cycle(std::size_t l, const Vector& b, Vector& x, Vector& t, Vector& y, SystemRange range) const {
  const index_t S = stride_;
  if (l == levels_.size()) {
    for (const Coarse& c : coarse_) {
      const SystemRange part = intersection(c.systems, range);
      if (part.size() > 0) batched_spmv(exec_, c.inverse, b, x, S, part);
    }
    return;
  }
  const Level& level = *levels_[l];
  const ShiftedView a = level.view(shifts_), smoother = level.smoother(shifts_);
  const auto residual = [&] {  // t = b − A x
    batched_shifted_spmv(exec_, a, x, t, S, range);
    batched_direction(exec_, minus_one_, b, t, S, range);
  };
  batched_jacobi(exec_, smoother, b, x, S, range);
  residual();
  batched_spmv(exec_, level.restriction, t, level.coarse_b, S, range);
  cycle(l + 1, level.coarse_b, level.coarse_x, level.coarse_t, level.coarse_y, range);
  batched_spmv(exec_, level.prolongation, level.coarse_x, t, S, range);
  batched_direction(exec_, plus_one_, t, x, S, range);
  residual();
  batched_jacobi(exec_, smoother, t, y, S, range);
  batched_direction(exec_, plus_one_, y, x, S, range);
}

}  // namespace miniapp::fft
