#include "solvers/amg/rank_level.hpp"

#include "operators/kernels/vector_ops.hpp"
#include "parallel/overlapped_operator.hpp"

namespace miniapp::amg {

RankOperator::RankOperator(const Executor& exec, const CsrMatrix& rows, index_t inner, parallel::Subdomain* x_domain,
                           index_t slice_height, bool float_values)
    : x_domain_(x_domain), inner_rows_(inner), other_rows_(rows.rows - inner),
      inner_(exec, to_sell(parallel::row_block(rows, 0, inner), slice_height), float_values),
      other_(exec, to_sell(parallel::row_block(rows, inner, rows.rows), slice_height), float_values) {}

template <class Pass>
void RankOperator::overlapped(Vector& x, Pass&& pass) const {
  if (x_domain_) x_domain_->start_halo_update(x);
  if (inner_rows_ > 0) pass(inner_, 0, inner_rows_);
  if (x_domain_) x_domain_->finish_halo_update(x);
  if (other_rows_ > 0) pass(other_, inner_rows_, other_rows_);
}

void RankOperator::apply(Vector& x, Vector& y) const {
  overlapped(x, [&](const LevelMatrix& block, index_t first, index_t count) {
    Vector rows = y.window(first, count);
    block.apply(x, rows);
  });
}

void RankOperator::apply_axpby(Vector& x, double alpha, const Vector& u, double beta, Vector& y) const {
  overlapped(x, [&](const LevelMatrix& block, index_t first, index_t count) {
    Vector rows = y.window(first, count);
    block.apply_axpby(x, alpha, u.window(first, count), beta, rows);
  });
}

void RankOperator::jacobi_step(Vector& x, const Vector& b, const Vector& w, Vector& y) const {
  overlapped(x, [&](const LevelMatrix& block, index_t first, index_t count) {
    Vector rows = y.window(first, count);
    block.jacobi_step(x, x.window(first, count), b.window(first, count), w.window(first, count), rows);
  });
}

GatheredCoarseSolve::GatheredCoarseSolve(const Executor& exec, parallel::Subdomain& domain,
                                         std::unique_ptr<CoarseSolve> whole, index_t rows)
    : exec_(exec), domain_(domain), whole_(std::move(whole)), rows_(rows), gathered_(exec, domain.local_count()) {}

void GatheredCoarseSolve::solve(const Vector& b, Vector& x) const {
  Vector owned = domain_.owned(gathered_);
  copy(exec_, domain_.owned(b), owned);
  domain_.update_halo(gathered_);
  Vector rows = x.window(0, rows_);
  whole_->solve(gathered_, rows);
}

}  // namespace miniapp::amg
