#include "operators/backend/cpu/kernels.hpp"
#include "operators/backend/cpu/parallel.hpp"

namespace miniapp::cpu {

void gather(index_t n, const index_t* index, const double* x, double* y) {
#pragma omp parallel for schedule(static) if (worth_parallel(n))
  for (index_t i = 0; i < n; ++i) y[i] = x[index[i]];
}

// Indices are distinct, so the parallel writes never collide.
void scatter(index_t n, const index_t* index, const double* x, double* y) {
#pragma omp parallel for schedule(static) if (worth_parallel(n))
  for (index_t i = 0; i < n; ++i) y[index[i]] = x[i];
}

}  // namespace miniapp::cpu
