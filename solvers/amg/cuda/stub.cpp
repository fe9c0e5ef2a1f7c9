// AMG's device set-up in a build without CUDA: every entry point says so.
#include "core/error.hpp"
#include "solvers/amg/cuda/sparse_product.hpp"

namespace miniapp::amg::cuda {
namespace {
[[noreturn]] void not_built() {
  throw Error("the CUDA backend is not part of this build (configure with -DMINIAPP_CUDA=ON on a machine with the CUDA toolkit)");
}
}  // namespace

bool product_row_counts(void*, const CsrView&, const CsrView&, index_t*) { not_built(); }
void product_rows(void*, const CsrView&, const CsrView&, const index_t*, index_t*, double*) { not_built(); }

}  // namespace miniapp::amg::cuda
