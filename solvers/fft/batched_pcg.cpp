// Batched Jacobi-PCG over shifted systems that share one matrix (host reference implementation).
#include "solvers/fft/batched_pcg.hpp"

#include <algorithm>
#include <cmath>

namespace miniapp::fft {

BatchedPcg::BatchedPcg(CsrMatrix a, std::vector<double> w, std::vector<double> shifts, bool singular_at_zero)
    : a_(std::move(a)), w_(std::move(w)), shifts_(std::move(shifts)) {
  const std::size_t n = static_cast<std::size_t>(a_.rows), s_count = shifts_.size();
  if (a_.rows != a_.cols || w_.size() != n)
    throw Error("BatchedPcg: the matrix is " + std::to_string(a_.rows) + " × " + std::to_string(a_.cols) + " and W has " +
                std::to_string(w_.size()) + " entries; a square matrix and one W per row are needed");
  inverse_diagonal_.resize(n * s_count);
  for (index_t c = 0; c < a_.rows; ++c) {
    double d = 0;
    for (index_t i = a_.row_ptr[c]; i < a_.row_ptr[c + 1]; ++i)
      if (a_.col[i] == c) d = a_.val[i];
    for (std::size_t s = 0; s < s_count; ++s) {
      const double shifted = d + shifts_[s] * w_[c];
      if (!(shifted > 0))
        throw Error("BatchedPcg: row " + std::to_string(c) + " of system " + std::to_string(s) + " has diagonal " +
                    std::to_string(shifted) + "; Jacobi needs a positive one");
      inverse_diagonal_[c * s_count + s] = 1 / shifted;
    }
  }
  for (double sigma : shifts_) singular_.push_back(singular_at_zero && sigma == 0);
  for (auto* v : {&r_, &z_, &p_, &q_}) v->assign(n * s_count, 0.0);
}

// q_s = (A + σ_s W) p_s for s < active: each coefficient of A is read once for all systems.
void BatchedPcg::spmv(const std::vector<double>& p, std::vector<double>& q, index_t active) const {
  const std::size_t S = shifts_.size();
  for (index_t c = 0; c < a_.rows; ++c) {
    double* qc = &q[c * S];
    const double* pc = &p[c * S];
    for (index_t s = 0; s < active; ++s) qc[s] = shifts_[s] * w_[c] * pc[s];
    for (index_t i = a_.row_ptr[c]; i < a_.row_ptr[c + 1]; ++i) {
      const double v = a_.val[i];
      const double* pj = &p[static_cast<std::size_t>(a_.col[i]) * S];
      for (index_t s = 0; s < active; ++s) qc[s] += v * pj[s];
    }
  }
}

std::vector<double> BatchedPcg::column_dots(const std::vector<double>& u, const std::vector<double>& v,
                                            index_t active) const {
  const std::size_t S = shifts_.size();
  std::vector<double> dots(S, 0.0);
  for (index_t c = 0; c < a_.rows; ++c)
    for (index_t s = 0; s < active; ++s) dots[s] += u[c * S + s] * v[c * S + s];
  return dots;
}

void BatchedPcg::remove_mean(std::vector<double>& v, index_t s) const {
  const std::size_t S = shifts_.size();
  double mean = 0;
  for (index_t c = 0; c < a_.rows; ++c) mean += v[c * S + s];
  mean /= a_.rows;
  for (index_t c = 0; c < a_.rows; ++c) v[c * S + s] -= mean;
}

// Per iteration and active system: one SpMV (A read once for all), 3 dots, 3 AXPYs and the Jacobi
// scaling, as in the 3D PCG; the A traffic is shared, the vector traffic is per system.
BatchedPcgResult BatchedPcg::solve(std::vector<double>& b, std::vector<double>& x, const BatchedPcgOptions& options) {
  const index_t S = systems();
  const std::size_t size = static_cast<std::size_t>(a_.rows) * S;
  if (b.size() != size) throw Error("BatchedPcg::solve: b has " + std::to_string(b.size()) + " entries, not " + std::to_string(size));
  for (index_t s = 0; s < S; ++s)
    if (singular_[s]) remove_mean(b, s);
  x.assign(size, 0.0);
  r_ = b;
  for (std::size_t i = 0; i < size; ++i) p_[i] = z_[i] = inverse_diagonal_[i] * r_[i];
  std::vector<double> rho = column_dots(r_, z_, S), b_norm = column_dots(b, b, S), alpha(S), beta(S);
  BatchedPcgResult result{std::vector<int>(S, 0), std::vector<double>(S, 0.0), false};
  std::vector<bool> done(S);
  for (index_t s = 0; s < S; ++s) b_norm[s] = std::sqrt(b_norm[s]), done[s] = b_norm[s] == 0;
  index_t active = S;
  for (int it = 1; it <= options.max_iterations; ++it) {
    while (active > 0 && done[active - 1]) --active;
    if (active == 0) break;
    spmv(p_, q_, active);
    const std::vector<double> pq = column_dots(p_, q_, active);
    for (index_t s = 0; s < active; ++s) alpha[s] = done[s] ? 0 : rho[s] / pq[s];
    for (index_t c = 0; c < a_.rows; ++c)
      for (index_t s = 0; s < active; ++s) {
        const std::size_t i = static_cast<std::size_t>(c) * S + s;
        x[i] += alpha[s] * p_[i];
        r_[i] -= alpha[s] * q_[i];
        z_[i] = inverse_diagonal_[i] * r_[i];
      }
    const std::vector<double> rz = column_dots(r_, z_, active), rr = column_dots(r_, r_, active);
    for (index_t s = 0; s < active; ++s) {
      if (done[s]) continue;
      result.iterations[s] = it;
      result.relative_residual[s] = std::sqrt(rr[s]) / b_norm[s];
      done[s] = result.relative_residual[s] <= options.tolerance;
      beta[s] = done[s] ? 0 : rz[s] / rho[s];
      rho[s] = rz[s];
    }
    for (index_t c = 0; c < a_.rows; ++c)
      for (index_t s = 0; s < active; ++s) {
        const std::size_t i = static_cast<std::size_t>(c) * S + s;
        p_[i] = z_[i] + beta[s] * p_[i];
      }
  }
  for (index_t s = 0; s < S; ++s)
    if (singular_[s]) remove_mean(x, s);
  result.converged = std::all_of(done.begin(), done.end(), [](bool d) { return d; });
  return result;
}

}  // namespace miniapp::fft
