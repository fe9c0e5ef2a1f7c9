#include "solvers/aip.hpp"

#include "solvers/aip_factor.hpp"

namespace miniapp {

Aip::Aip(const Executor& exec, const CsrMatrix& a, int level, index_t slice_height, AipForm form)
    : exec_(exec), level_(level), g_(exec, aip_factor(a, level), slice_height, form) {}

Aip::Aip(const Executor& exec, const AipHostMatrices& factor, int level, index_t slice_height)
    : exec_(exec), level_(level), g_(exec, factor, slice_height) {}

void Aip::apply(const Vector& r, Vector& z) const { aip_apply(exec_, g_, r, z); }

bool Aip::apply_with_rho(const Vector& r, Vector& z, CgScalars& s) const {
  aip_apply(exec_, g_, r, z, &s);
  return true;
}

void Aip::apply_advancing(const Vector& p, const Vector& q, Vector& x, const Vector& r, Vector& r_new, Vector& z,
                          CgScalars& s) const {
  aip_apply_advancing(exec_, g_, p, q, x, r, r_new, z, s);
}

}  // namespace miniapp
