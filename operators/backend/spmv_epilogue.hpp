#pragma once
// What a fused SpMV (operators/kernels/fused_spmv.hpp) stores at row i from that row's product
// p = (A x)_i, in place of p. Each reads only row i of its vectors, so one pass over the matrix does the
// work of the SpMV and of the vector kernels that would follow it: AMG's cycle forms its residuals,
// its prolonged corrections and its post-smoothing this way. Shared by both backends.
#include "core/types.hpp"
#include "operators/backend/host_device.hpp"

namespace miniapp {

// y_i = α u_i + β p. u may be y (row i is read before it is written).
struct AxpbyEpilogue {
  double alpha;
  const double* u;
  double beta;
  double* y;
  MINIAPP_HOST_DEVICE void operator()(index_t i, double p) const { y[i] = alpha * u[i] + beta * p; }
};

// y_i = v_i + w_i (b_i − p): a damped-Jacobi step from x when v holds x's entries at y's rows.
struct JacobiEpilogue {
  const double *v, *b, *w;
  double* y;
  MINIAPP_HOST_DEVICE void operator()(index_t i, double p) const { y[i] = v[i] + w[i] * (b[i] - p); }
};

}  // namespace miniapp
