// Batched PCG over shifted systems that share one matrix, written against the batched front ends so
// that the same loop runs on the CPU and on CUDA.
#include "solvers/fft/batched_pcg.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <span>

#include "operators/kernels/vector_ops.hpp"

namespace miniapp::fft {

BatchedPcg::BatchedPcg(const Executor& exec, CsrMatrix a, std::vector<double> w, std::vector<double> shifts,
                       bool singular_at_zero, index_t block_systems, int aip_level, PlanePartition* plane)
    : exec_(exec), plane_(plane), systems_(exec, std::move(a), std::move(w), std::move(shifts)),
      preconditioner_(exec, systems_, block_systems > 0 ? block_systems : block_systems_for(systems_.systems(), 8),
                      aip_level, plane ? plane->owned_rows() : systems_.rows()) {
  if (plane && plane->local_rows() != rows())
    throw Error("BatchedPcg: the 2D matrix has " + std::to_string(rows()) + " rows, the rank holds " +
                std::to_string(plane->local_rows()) + " 2D cells");
  const index_t n = batched_size(rows(), systems());
  for (Vector* v : {&r_, &z_, &p_, &q_}) *v = Vector(exec, n);
  scratch_ = Vector(exec, batched_dot_scratch(exec, systems()));
  for (Vector* v : {&alpha_, &beta_, &shift_}) *v = Vector(exec, systems());
  dots_ = Vector(exec, max_dot_pairs * systems());
  if (singular_at_zero)
    while (singular_systems_ < systems() && systems_.host_shifts[singular_systems_] == 0) ++singular_systems_;
}

// Column dots over the owned rows of the first `active` systems for each pair (S values each, the
// others stale), queued together and read back to the host at one synchronisation on CUDA; on
// several ranks summed over the ranks in one allreduce.
std::vector<std::vector<double>> BatchedPcg::column_dots(std::initializer_list<DotPair> pairs, index_t active) {
  const index_t S = systems(), owned = batched_size(owned_rows(), S);
  index_t row = 0;
  for (const auto& [u, v] : pairs) {
    Vector out = dots_.window(row++ * S, S);
    std::optional<Vector> v_owned;  // not a default Vector: that would make an executor every call
    if (v) v_owned.emplace(v->window(0, owned));
    batched_dot(exec_, u->window(0, owned), v ? &*v_owned : nullptr, S, {0, active}, scratch_, out);
  }
  std::vector<double> host = dots_.to_host();
  if (plane_) plane_->sum(std::span(host).first(static_cast<std::size_t>(row * S)));
  std::vector<std::vector<double>> dots;
  for (index_t k = 0; k < row; ++k) dots.emplace_back(host.begin() + k * S, host.begin() + (k + 1) * S);
  return dots;
}

// v_s −= mean(v_s) for the singular systems.
void BatchedPcg::remove_mean(Vector& v) {
  if (singular_systems_ == 0) return;
  std::vector<double> shift = column_dots({{&v, nullptr}}, singular_systems_)[0];
  const double rows = plane_ ? plane_->global_rows() : this->rows();
  for (double& value : shift) value = -value / rows;
  shift_.copy_from_host(shift);
  batched_add(exec_, shift_, v, systems(), {0, singular_systems_});
}

BatchedPcgResult BatchedPcg::solve(Vector& b, Vector& x, const BatchedPcgOptions& options, bool initial_guess) {
  const index_t S = systems();
  const index_t n = batched_size(rows(), S);
  if (b.size() != n || x.size() != n)
    throw Error("BatchedPcg::solve: b has " + std::to_string(b.size()) + " and x " + std::to_string(x.size()) +
                " entries; " + std::to_string(n) + " (rows × systems) expected");
  const ShiftedView m = systems_.view();
  if (!initial_guess) fill(exec_, 0.0, x);
  remove_mean(b);
  remove_mean(x);
  if (plane_ && initial_guess) plane_->update_halo(x, {0, S});
  batched_shifted_spmv(exec_, m, x, q_, S, {0, S});
  waxpby(exec_, 1.0, b, -1.0, q_, r_);
  preconditioner_.apply(r_, z_, S);
  copy(exec_, z_, p_);
  std::vector<std::vector<double>> dots = column_dots({{&b, &b}, {&r_, &z_}, {&r_, &r_}}, S);
  std::vector<double> b_norm = std::move(dots[0]), rho = std::move(dots[1]), rr = std::move(dots[2]);
  std::vector<double> alpha(S, 0.0), beta(S, 0.0);
  BatchedPcgResult result{std::vector<int>(S, 0), std::vector<double>(S, 0.0), false};
  std::vector<bool> done(S);
  for (index_t s = 0; s < S; ++s) {
    b_norm[s] = std::sqrt(b_norm[s]);
    result.relative_residual[s] = b_norm[s] > 0 ? std::sqrt(rr[s]) / b_norm[s] : 0.0;
    done[s] = result.relative_residual[s] <= options.tolerance;
  }
  index_t active = S;
  for (int it = 1; it <= options.max_iterations; ++it) {
    while (active > 0 && done[active - 1]) --active;
    if (active == 0) break;
    if (plane_) plane_->update_halo(p_, {0, active});  // all active systems in one message per neighbour
    batched_shifted_spmv(exec_, m, p_, q_, S, {0, active});
    const std::vector<double> pq = column_dots({{&p_, &q_}}, active)[0];
    for (index_t s = 0; s < active; ++s) alpha[s] = done[s] ? 0 : rho[s] / pq[s];
    alpha_.copy_from_host(alpha);
    batched_cg_update(exec_, alpha_, p_, q_, x, r_, S, {0, active});
    preconditioner_.apply(r_, z_, active);
    dots = column_dots({{&r_, &z_}, {&r_, &r_}}, active);
    const std::vector<double>& rz = dots[0];
    rr = std::move(dots[1]);
    for (index_t s = 0; s < active; ++s) {
      beta[s] = 0;
      if (done[s]) continue;
      result.iterations[s] = it;
      result.relative_residual[s] = std::sqrt(rr[s]) / b_norm[s];
      done[s] = result.relative_residual[s] <= options.tolerance;
      if (!done[s]) beta[s] = rz[s] / rho[s];
      rho[s] = rz[s];
    }
    beta_.copy_from_host(beta);
    batched_direction(exec_, beta_, z_, p_, S, {0, active});
  }
  remove_mean(x);
  result.converged = std::all_of(done.begin(), done.end(), [](bool d) { return d; });
  return result;
}

}  // namespace miniapp::fft
