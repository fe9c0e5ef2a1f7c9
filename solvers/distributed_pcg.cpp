#include "solvers/distributed_pcg.hpp"

#include <cmath>
#include <cstdint>

#include "operators/kernels/vector_ops.hpp"

namespace miniapp {

DistributedPcg::DistributedPcg(const Executor& exec, parallel::Subdomain& domain)
    : exec_(exec), domain_(domain), global_rows_(domain.sum(static_cast<long long>(domain.owned_count()))) {
  const index_t n = domain.local_count();
  for (Vector* v : {&r_, &z_, &p_, &q_, &rhs_, &ones_}) *v = Vector(exec, n);
  fill(exec_, 1.0, ones_);
}

// v ← v − mean(v) 1 over the owned entries of all ranks (the halo shifts too, harmlessly).
void DistributedPcg::remove_mean(Vector& v) {
  const double mean = domain_.dot(exec_, ones_, v) / static_cast<double>(global_rows_);
  axpby(exec_, -mean, ones_, 1.0, v);
}


PcgResult DistributedPcg::solve(const parallel::OverlappedOperator& a, const Preconditioner& m, const Vector& b,
                                Vector& x, const PcgOptions& options) {
  const index_t n = domain_.local_count();
  if (a.local_count() != n || b.size() != n || x.size() != n)
    throw Error("DistributedPcg::solve: sizes do not match the rank's " + std::to_string(n) + " cells");
  copy(exec_, b, rhs_);
  if (options.singular) {
    remove_mean(rhs_);
    remove_mean(x);
  }
  const double b_norm = std::sqrt(domain_.dot(exec_, rhs_, rhs_));
  PcgResult result;
  if (b_norm == 0) {
    fill(exec_, 0.0, x);
    result.converged = true;
    return result;
  }
  a.apply(domain_, x, q_);  // r = b − A x, z = M⁻¹ r, p = z
  waxpby(exec_, 1.0, rhs_, -1.0, q_, r_);
  m.apply(r_, z_);
  double dots[2];  // r·r, r·z over all ranks
  const Vector* lhs[] = {&r_, &r_};
  const Vector* rhs[] = {&r_, &z_};
  const auto reduce_residual = [&] { domain_.multi_dot(exec_, lhs, rhs, dots); };
  reduce_residual();
  double rho = dots[1];
  result.relative_residual = std::sqrt(dots[0]) / b_norm;
  copy(exec_, z_, p_);
  const KernelCounters before = exec_.counters();
  while (result.relative_residual > options.tolerance && result.iterations < options.max_iterations) {
    a.apply(domain_, p_, q_);
    const double sigma = domain_.dot(exec_, p_, q_);
    if (!(sigma > 0)) {
      result.warning = pcg_breakdown_warning(result.iterations, sigma);
      break;
    }
    const double alpha = rho / sigma;
    axpby(exec_, alpha, p_, 1.0, x);
    axpby(exec_, -alpha, q_, 1.0, r_);
    m.apply(r_, z_);
    reduce_residual();
    result.iterations += 1;
    result.relative_residual = std::sqrt(dots[0]) / b_norm;
    const double beta = dots[1] / rho;
    rho = dots[1];
    axpby(exec_, 1.0, z_, beta, p_);
  }
  if (options.singular) remove_mean(x);
  result.queued_iterations = result.iterations;  // one iteration at a time
  result.iteration_kernels = exec_.counters().since(before);
  set_outcome(result, options);
  return result;
}

CsrMatrix block_of_owned_rows(const CsrMatrix& local, index_t owned) {
  std::vector<Triplet> t;
  for (index_t i = 0; i < local.rows; ++i) {
    if (i >= owned) {
      t.push_back({i, i, 1.0});
      continue;
    }
    for (index_t p = local.row_ptr[i]; p < local.row_ptr[i + 1]; ++p)
      if (local.col[p] < owned) t.push_back({i, local.col[p], local.val[p]});
  }
  return csr_from_triplets(local.rows, local.cols, std::move(t));
}

}  // namespace miniapp
