// The CUDA AIP apply of a build without CUDA: says so.
#include "miniapp/core/error.hpp"
#include "operators/backend/cuda/aip_kernels.hpp"

namespace miniapp::cuda {

void aip_apply(void*, const AipFactorView&, const double*, double*, const cg::ScalarsView&) {
  throw Error("aip_apply: the CUDA backend is not part of this build (configure with -DMINIAPP_CUDA=ON on a "
              "machine with the CUDA toolkit)");
}

}  // namespace miniapp::cuda
