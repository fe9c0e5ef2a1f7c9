// The CUDA part of the FFT Poisson path in a build without CUDA: every entry point says so.
#include "core/error.hpp"
#include "solvers/fft/cuda/batched_kernels.hpp"
#include "solvers/fft/cuda/cufft_transform.hpp"

namespace miniapp::fft::cuda {
namespace {
[[noreturn]] void not_built() {
  throw Error("the FFT Poisson solver's CUDA path is not part of this build (configure with -DMINIAPP_CUDA=ON on a "
              "machine with the CUDA toolkit)");
}
}  // namespace

void batched_spmv(void*, const ShiftedPointers&, BatchedShape, const double*, double*) { not_built(); }
void batched_spmv_warp_rows(void*, const CsrView&, BatchedShape, const double*, double*) { not_built(); }
void batched_jacobi(void*, const ShiftedPointers&, BatchedShape, const double*, double*) { not_built(); }
void batched_column_sums(void*, BatchedShape, const double*, double*) { not_built(); }
void batched_dot_partials(void*, BatchedShape, index_t, const double*, const double*, double*) { not_built(); }
void batched_spmv_dot(void*, const ShiftedPointers&, BatchedShape, index_t, const double*, double*, double*, TileSpan) {
  not_built();
}
void batched_cg_update_jacobi(void*, const ShiftedPointers&, BatchedShape, index_t, index_t, const CgUpdateVectors&,
                              double*, double*) {
  not_built();
}
void batched_direction(void*, BatchedShape, const double*, const double*, double*) { not_built(); }
void batched_direction_jacobi(void*, const ShiftedPointers&, BatchedShape, index_t, const DirectionVectors&) {
  not_built();
}
void batched_subtract_mean(void*, BatchedShape, const double*, double, double*) { not_built(); }
void batched_finish_curvature(void*, BatchedShape, index_t, double*, const double*) { not_built(); }
void batched_finish_residual(void*, BatchedShape, index_t, double*, const double*, const double*) { not_built(); }
void batched_start(void*, index_t, double*, const double*, double) { not_built(); }
std::unique_ptr<PeriodicFft> make_cufft_transform(const Executor&, index_t, index_t) { not_built(); }
std::size_t cufft_work_bytes(index_t, index_t) { not_built(); }

}  // namespace miniapp::fft::cuda
