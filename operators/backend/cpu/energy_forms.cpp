#include "operators/backend/cpu/kernels.hpp"
#include "operators/backend/cpu/parallel.hpp"
#include "operators/backend/kernel_types.hpp"

namespace miniapp::cpu {
namespace {

// The forms of one row and component at the midpoint x = ½(u + u_old): (A_v x)_i for v < k in stored
// order (padding adds exact zeros, as in the SpMV), and with a diagonal the row of its form: values[0]'s
// off-diagonal entries plus its own diagonal entry (summed: a padding entry in the diagonal's column
// holds 0).
struct RowForms {
  double row[max_energy_forms] = {};
  double off_diagonal = 0, diagonal = 0;
};

RowForms row_forms(const SellView& a, int k, const double* const* values, const double* diagonal, const double* u,
                   const double* u_old, index_t i) {
  RowForms r;
  const index_t h = a.slice_height, end = a.slice_ptr[i / h + 1];
  for (index_t e = a.slice_ptr[i / h] + i % h; e < end; e += h) {
    const index_t c = a.col[e];
    const double x = 0.5 * (u[c] + u_old[c]);
    for (int v = 0; v < k; ++v) r.row[v] += values[v][e] * x;
    if (!diagonal) continue;
    if (c == i) r.diagonal += diagonal[e];
    else r.off_diagonal += values[0][e] * x;
  }
  return r;
}

}  // namespace

void energy_forms(const SellView& a, int k, const double* const* values, const double* diagonal,
                  const double* const* u, const double* const* u_old, const double* w, index_t n, double* out) {
  double sum[max_energy_forms + 1] = {};
#pragma omp parallel for schedule(static) reduction(+ : sum[:max_energy_forms + 1]) if (worth_parallel(n))
  for (index_t i = 0; i < n; ++i) {
    for (int d = 0; d < 3; ++d) sum[0] += w[i] * (u[d][i] * u[d][i]);
    if (k == 0) continue;
    for (int d = 0; d < 3; ++d) {
      const double mid = 0.5 * (u[d][i] + u_old[d][i]);
      const RowForms r = row_forms(a, k, values, diagonal, u[d], u_old[d], i);
      for (int v = 0; v < k; ++v) sum[1 + v] += mid * r.row[v];
      if (diagonal) sum[1 + k] += mid * (r.off_diagonal + r.diagonal * mid);
    }
  }
  for (int v = 0; v <= k + (diagonal ? 1 : 0); ++v) out[v] = sum[v];
}

}  // namespace miniapp::cpu
