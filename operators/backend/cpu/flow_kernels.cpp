// Pointwise flow kernels of the CPU backend; the per-cell math is shared with CUDA (les_models.hpp).
#include <cmath>
#include <limits>

#include "operators/backend/cpu/kernels.hpp"
#include "operators/backend/cpu/parallel.hpp"
#include "operators/backend/les_models.hpp"
#include "operators/backend/wall_shear.hpp"

namespace miniapp::cpu {

// One loop per model (with_model), so the per-cell code has no model branch.
void eddy_viscosity(index_t n, LesModel model, double constant, const double* const* gradient,
                    const double* filter_width, double* nu_t) {
  les::GradientPointers g;
  for (int k = 0; k < 9; ++k) g.component[k] = gradient[k];
  les::with_model(model, [&](auto m) {
#pragma omp parallel for schedule(static) if (worth_parallel(n))
    for (index_t i = 0; i < n; ++i)
      nu_t[i] = les::eddy_viscosity<decltype(m)::value>(constant, g.at(i), filter_width[i]);
  });
}

// NaN-propagating reductions (les::nan_min, nan_max): the combination order does not change the result.
#pragma omp declare reduction(nan_min : double : omp_out = les::nan_min(omp_out, omp_in)) \
    initializer(omp_priv = std::numeric_limits<double>::infinity())
#pragma omp declare reduction(nan_max : double : omp_out = les::nan_max(omp_out, omp_in)) initializer(omp_priv = 0.0)

double min_ratio(index_t n, const double* x, const double* y) {
  double result = std::numeric_limits<double>::infinity();
#pragma omp parallel for schedule(static) reduction(nan_min : result) if (worth_parallel(n))
  for (index_t i = 0; i < n; ++i)
    if (y[i] > 0.0) result = les::nan_min(result, x[i] / y[i]);
  return result;
}

double max_abs(index_t n, const double* x) {
  double result = 0.0;
#pragma omp parallel for schedule(static) reduction(nan_max : result) if (worth_parallel(n))
  for (index_t i = 0; i < n; ++i) result = les::nan_max(result, std::fabs(x[i]));
  return result;
}

void abs_value(index_t n, const double* x, double* y) {
#pragma omp parallel for simd schedule(static) if (worth_parallel(n))
  for (index_t i = 0; i < n; ++i) y[i] = std::fabs(x[i]);
}

void wall_shear(index_t n, const wall::FacePointers& faces, double scale, double nu, double* tau, double* yplus) {
#pragma omp parallel for schedule(static) if (worth_parallel(n))
  for (index_t i = 0; i < n; ++i) {
    const wall::Shear s = wall::shear_at(faces, i, scale, nu);
    tau[i] = s.tau;
    yplus[i] = s.yplus;
  }
}

}  // namespace miniapp::cpu
