// The CUDA backend of a build without CUDA: every entry point says so.
#include "core/error.hpp"
#include "operators/backend/cuda/aip_kernels.hpp"
#include "operators/backend/cuda/device.hpp"
#include "operators/backend/cuda/kernels.hpp"
#include "operators/backend/cuda/vendor_kernels.hpp"

namespace miniapp::cuda {
namespace {
[[noreturn]] void not_built() {
  throw Error("the CUDA backend is not part of this build (configure with -DMINIAPP_CUDA=ON on a machine with the CUDA toolkit)");
}
}  // namespace

bool built() { return false; }
int device_count() { return 0; }
std::string device_name(int) { not_built(); }
std::size_t free_memory(int) { not_built(); }
MemoryInfo memory_info(int) { not_built(); }
StreamMarks::StreamMarks(void*, int) : stream_(nullptr) { not_built(); }
StreamMarks::~StreamMarks() = default;
void StreamMarks::record(int) { not_built(); }
double StreamMarks::seconds(int, int) const { not_built(); }
void* create_stream(int) { not_built(); }
void destroy_stream(void*) noexcept {}
void synchronize(void*) { not_built(); }
void* allocate(int, std::size_t) { not_built(); }
void deallocate(void*) noexcept {}
void copy_from_host(void*, void*, const void*, std::size_t) { not_built(); }
void copy_to_host(void*, void*, const void*, std::size_t) { not_built(); }
void copy_device(void*, void*, const void*, std::size_t) { not_built(); }
Graph::~Graph() = default;
void Graph::begin_capture(void*) { not_built(); }
bool Graph::end_capture(void*) { not_built(); }
void Graph::abort_capture(void*) noexcept {}
bool Graph::end_trial_capture(void*) { not_built(); }
void Graph::launch(void*) const { not_built(); }
bool Graph::loops_supported() { return false; }
std::uint64_t Graph::begin_loop_capture(void*) { not_built(); }
bool Graph::end_loop_capture(void*) { not_built(); }
void Graph::abort_loop_capture(void*) noexcept {}

void spmv_sell(void*, const SellView&, const double*, double*) { not_built(); }
void spmv_csr(void*, const CsrView&, const double*, double*) { not_built(); }
void spmv_csr_warp_rows(void*, const CsrView&, const double*, double*) { not_built(); }
void spmv_sell_multi(void*, const SellView&, int, const double* const*, double* const*) { not_built(); }
void spmv_sell_interleaved(void*, const SellView&, int, const double* const*, double*) { not_built(); }
void spmv_fused(void*, const SellView&, const double*, const AxpbyEpilogue&) { not_built(); }
void spmv_fused(void*, const SellView&, const double*, const JacobiEpilogue&) { not_built(); }
void spmv_fused(void*, const SellFloatView&, const double*, const AxpbyEpilogue&) { not_built(); }
void spmv_fused(void*, const SellFloatView&, const double*, const JacobiEpilogue&) { not_built(); }
void spmv_fused(void*, const CsrView&, const double*, const AxpbyEpilogue&) { not_built(); }
void spmv_fused(void*, const CsrView&, const double*, const JacobiEpilogue&) { not_built(); }
void axpby(void*, index_t, Coefficient, const double*, Coefficient, double*) { not_built(); }
void waxpby(void*, index_t, Coefficient, const double*, Coefficient, const double*, double*) { not_built(); }
void pointwise_multiply(void*, index_t, const double*, const double*, double*) { not_built(); }
void accumulate_product(void*, index_t, double, const double*, const double*, double*) { not_built(); }
void fill(void*, index_t, double, double*) { not_built(); }
void copy(void*, index_t, const double*, double*) { not_built(); }
double dot(void*, index_t, const double*, const double*) { not_built(); }
void dot_async(void*, index_t, const double*, const double*, double*) { not_built(); }
void multi_dot(void*, index_t, int, const double* const*, const double* const*, double*) { not_built(); }
void multi_dot_async(void*, index_t, int, const double* const*, const double* const*, double*) { not_built(); }

void eddy_viscosity(void*, index_t, LesModel, double, const double* const*, const double*, double*) { not_built(); }
double min_ratio(void*, index_t, const double*, const double*) { not_built(); }
void min_ratio_async(void*, index_t, const double*, const double*, double*) { not_built(); }
double max_abs(void*, index_t, const double*) { not_built(); }
void max_abs_async(void*, index_t, const double*, double*) { not_built(); }
void energy_forms(void*, const SellView&, int, const double* const*, const double*, const double* const*,
                  const double* const*, const double*, index_t, double*) {
  not_built();
}
void abs_value(void*, index_t, const double*, double*) { not_built(); }
void wall_shear(void*, index_t, const wall::FacePointers&, double, double, double*, double*) { not_built(); }
void fill_sell(void*, const SellFillRows&, const index_t*, const index_t*, const index_t*, const double*, index_t*,
               double*) {
  not_built();
}
index_t sell_slice_offsets(void*, const index_t*, index_t, index_t, index_t*) { not_built(); }
void gather(void*, index_t, const index_t*, const double*, double*) { not_built(); }
void scatter(void*, index_t, const index_t*, const double*, double*) { not_built(); }

void cg_spmv_dot(void*, const SellView&, const double*, double*, const cg::ScalarsView&) { not_built(); }
void cg_update(void*, index_t, const double*, const double*, double*, double*, const cg::ScalarsView&) { not_built(); }
void cg_update_jacobi(void*, index_t, const double*, const double*, const double*, double*, double*, double*,
                      const cg::ScalarsView&) {
  not_built();
}
void cg_rho(void*, index_t, const double*, const double*, const cg::ScalarsView&) { not_built(); }
void cg_direction_spmv_dot(void*, const SellView&, const double*, double*, double*, const cg::ScalarsView&) {
  not_built();
}
void cg_mean(void*, index_t, const double*, const cg::ScalarsView&) { not_built(); }
void cg_subtract_mean(void*, index_t, double*, const cg::ScalarsView&) { not_built(); }
void cg_start(void*, index_t, const double*, const double*, const cg::ScalarsView&, double, double) { not_built(); }
void cg_loop_test(void*, const cg::ScalarsView&, int, std::uint64_t) { not_built(); }
void aip_apply(void*, const AipFactorView&, const double*, double*, const cg::ScalarsView&) { not_built(); }
void narrow_to_float(void*, index_t, const double*, float*) { not_built(); }
void round_to_float(void*, index_t, double*) { not_built(); }
void aip_apply_advancing(void*, const AipFactorView&, const double*, const double*, double*, const double*, double*,
                         double*, const cg::ScalarsView&) {
  not_built();
}

struct VendorSpmv::State {};
VendorSpmv VendorSpmv::csr(void*, const CsrView&, index_t, const double*, double*) { not_built(); }
VendorSpmv VendorSpmv::sell(void*, const SellView&, index_t, const index_t*, const double*, double*) { not_built(); }
VendorSpmv::VendorSpmv(VendorSpmv&&) noexcept = default;
VendorSpmv& VendorSpmv::operator=(VendorSpmv&&) noexcept = default;
VendorSpmv::~VendorSpmv() = default;
void VendorSpmv::run() { not_built(); }
VendorBlas::VendorBlas(void*) { not_built(); }
VendorBlas::~VendorBlas() = default;
void VendorBlas::axpy(index_t, double, const double*, double*) { not_built(); }
double VendorBlas::dot(index_t, const double*, const double*) { not_built(); }

}  // namespace miniapp::cuda
