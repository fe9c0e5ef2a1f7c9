#include "solvers/aip.hpp"

#include "operators/kernels/spmv.hpp"
#include "solvers/aip_factor.hpp"

namespace miniapp {

Aip::HostFactors Aip::build_factors(const CsrMatrix& a, int level, index_t slice_height) {
  const CsrMatrix g = aip_factor(a, level);
  return {to_sell(g, slice_height), to_sell(transpose(g), slice_height)};
}

Aip::Aip(const Executor& exec, const CsrMatrix& a, int level, index_t slice_height)
    : Aip(exec, build_factors(a, level, slice_height), level) {}

Aip::Aip(const Executor& exec, HostFactors&& factors, int level)
    : exec_(exec), level_(level), g_(exec, factors.g), gt_(exec, factors.gt), tmp_(exec, factors.g.rows) {}

void Aip::apply(const Vector& r, Vector& z) const {
  spmv(exec_, g_, r, tmp_);
  spmv(exec_, gt_, tmp_, z);
}

}  // namespace miniapp
