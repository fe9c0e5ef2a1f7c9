// cuSPARSE and cuBLAS baselines (vendor_kernels.hpp). Host code: no kernels of ours here, so a .cpp.
#include "operators/backend/cuda/vendor_kernels.hpp"

#include <string>

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cusparse.h>

#include "core/error.hpp"
#include "operators/backend/cuda/runtime_check.hpp"

namespace miniapp::cuda {
namespace {

void check_cusparse(cusparseStatus_t status, const char* call, const char* file, int line) {
  if (status != CUSPARSE_STATUS_SUCCESS)
    throw Error(std::string(file) + ":" + std::to_string(line) + ": cuSPARSE call " + call + " failed: " +
                cusparseGetErrorString(status));
}

void check_cublas(cublasStatus_t status, const char* call, const char* file, int line) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw Error(std::string(file) + ":" + std::to_string(line) + ": cuBLAS call " + call + " failed: " +
                cublasGetStatusString(status));
}

}  // namespace
}  // namespace miniapp::cuda

#define MINIAPP_CUSPARSE_CHECK(call) ::miniapp::cuda::check_cusparse((call), #call, __FILE__, __LINE__)
#define MINIAPP_CUBLAS_CHECK(call) ::miniapp::cuda::check_cublas((call), #call, __FILE__, __LINE__)

namespace miniapp::cuda {

struct VendorSpmv::State {
  cusparseHandle_t handle = nullptr;
  cusparseSpMatDescr_t a = nullptr;
  cusparseDnVecDescr_t x = nullptr, y = nullptr;
  cusparseSpMVAlg_t algorithm = CUSPARSE_SPMV_ALG_DEFAULT;
  void* buffer = nullptr;

  State(void* stream, cusparseSpMVAlg_t spmv_algorithm) : algorithm(spmv_algorithm) {
    MINIAPP_CUSPARSE_CHECK(cusparseCreate(&handle));
    MINIAPP_CUSPARSE_CHECK(cusparseSetStream(handle, static_cast<cudaStream_t>(stream)));
  }
  State(const State&) = delete;
  State& operator=(const State&) = delete;
  ~State() {
    cudaFree(buffer);
    if (x) cusparseDestroyDnVec(x);
    if (y) cusparseDestroyDnVec(y);
    if (a) cusparseDestroySpMat(a);
    if (handle) cusparseDestroy(handle);
  }
  // Vectors, work buffer: what both formats need after their matrix descriptor.
  void finish(index_t rows, index_t cols, const double* x_data, double* y_data) {
    MINIAPP_CUSPARSE_CHECK(cusparseCreateDnVec(&x, cols, const_cast<double*>(x_data), CUDA_R_64F));
    MINIAPP_CUSPARSE_CHECK(cusparseCreateDnVec(&y, rows, y_data, CUDA_R_64F));
    const double one = 1.0, zero = 0.0;
    std::size_t bytes = 0;
    MINIAPP_CUSPARSE_CHECK(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, a, x, &zero, y,
                                                   CUDA_R_64F, algorithm, &bytes));
    if (bytes > 0) MINIAPP_CUDA_CHECK(cudaMalloc(&buffer, bytes));
  }
};

VendorSpmv::VendorSpmv(std::unique_ptr<State> state) : state_(std::move(state)) {}
VendorSpmv::VendorSpmv(VendorSpmv&&) noexcept = default;
VendorSpmv& VendorSpmv::operator=(VendorSpmv&&) noexcept = default;
VendorSpmv::~VendorSpmv() = default;

VendorSpmv VendorSpmv::csr(void* stream, const CsrView& a, index_t nnz, const double* x, double* y) {
  auto s = std::make_unique<State>(stream, CUSPARSE_SPMV_CSR_ALG1);
  MINIAPP_CUSPARSE_CHECK(cusparseCreateCsr(&s->a, a.rows, a.cols, nnz, const_cast<index_t*>(a.row_ptr),
                                           const_cast<index_t*>(a.col), const_cast<double*>(a.val),
                                           CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO,
                                           CUDA_R_64F));
  s->finish(a.rows, a.cols, x, y);
  return VendorSpmv(std::move(s));
}

VendorSpmv VendorSpmv::sell(void* stream, const SellView& a, index_t nnz, const index_t* col, const double* x,
                            double* y) {
  auto s = std::make_unique<State>(stream, CUSPARSE_SPMV_SELL_ALG1);
  // Values stored = slice_ptr[slice_count], which the view does not carry: read it back once.
  index_t stored = 0;
  MINIAPP_CUDA_CHECK(cudaMemcpy(&stored, a.slice_ptr + a.slice_count, sizeof stored, cudaMemcpyDeviceToHost));
  MINIAPP_CUSPARSE_CHECK(cusparseCreateSlicedEll(&s->a, a.rows, a.cols, nnz, stored, a.slice_height,
                                                 const_cast<index_t*>(a.slice_ptr), const_cast<index_t*>(col),
                                                 const_cast<double*>(a.val), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                                                 CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
  s->finish(a.rows, a.cols, x, y);
  return VendorSpmv(std::move(s));
}

void VendorSpmv::run() {
  const double one = 1.0, zero = 0.0;
  MINIAPP_CUSPARSE_CHECK(cusparseSpMV(state_->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, state_->a, state_->x,
                                      &zero, state_->y, CUDA_R_64F, state_->algorithm, state_->buffer));
}

VendorBlas::VendorBlas(void* stream) {
  cublasHandle_t handle = nullptr;
  MINIAPP_CUBLAS_CHECK(cublasCreate(&handle));
  handle_ = handle;
  MINIAPP_CUBLAS_CHECK(cublasSetStream(handle, static_cast<cudaStream_t>(stream)));
  MINIAPP_CUBLAS_CHECK(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST));
}

VendorBlas::~VendorBlas() { cublasDestroy(static_cast<cublasHandle_t>(handle_)); }

void VendorBlas::axpy(index_t n, double a, const double* x, double* y) {
  MINIAPP_CUBLAS_CHECK(cublasDaxpy(static_cast<cublasHandle_t>(handle_), n, &a, x, 1, y, 1));
}

double VendorBlas::dot(index_t n, const double* x, const double* y) {
  double result = 0.0;
  MINIAPP_CUBLAS_CHECK(cublasDdot(static_cast<cublasHandle_t>(handle_), n, x, 1, y, 1, &result));
  return result;
}

}  // namespace miniapp::cuda
