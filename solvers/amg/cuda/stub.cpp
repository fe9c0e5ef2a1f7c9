// AMG's device set-up in a build without CUDA: every entry point says so.
#include "core/error.hpp"
#include "solvers/amg/cuda/aggregation.hpp"
#include "solvers/amg/cuda/level_kernels.hpp"
#include "solvers/amg/cuda/sparse_product.hpp"

namespace miniapp::amg::cuda {
namespace {
[[noreturn]] void not_built() {
  throw Error("the CUDA backend is not part of this build (configure with -DMINIAPP_CUDA=ON on a machine with the CUDA toolkit)");
}
}  // namespace

bool product_row_counts(void*, const CsrView&, const CsrView&, index_t*) { not_built(); }
void product_rows(void*, const CsrView&, const CsrView&, const index_t*, index_t*, double*) { not_built(); }
index_t aggregate_rows(void*, const CsrView&, const double*, index_t*, index_t*) { not_built(); }
std::int64_t row_offsets(void*, index_t, const index_t*, index_t*) { not_built(); }
bool filtered_row_counts(void*, const CsrView&, const double*, double, index_t*) { not_built(); }
void filtered_rows(void*, const CsrView&, const double*, double, const index_t*, index_t*, double*) { not_built(); }
void tentative_rows(void*, index_t, const index_t*, index_t*, index_t*, double*) { not_built(); }
double gershgorin_bound(void*, const CsrView&, const double*) { not_built(); }
void start_power_iterations(void*, index_t, const double*, double*, double*) { not_built(); }
void scaled_product(void*, const CsrView&, const double*, const double*, double*) { not_built(); }
void chunk_sums_of_squares(void*, index_t, index_t, const double*, double*) { not_built(); }
void scale_and_divide(void*, index_t, const double*, const double*, double, double*) { not_built(); }
void row_diagonal(void*, const CsrView&, double*) { not_built(); }
void smooth_prolongation_rows(void*, const CsrView&, double*, const double*, double, const index_t*) { not_built(); }
void transpose(void*, const CsrView&, index_t*, index_t*, double*) { not_built(); }

}  // namespace miniapp::amg::cuda
