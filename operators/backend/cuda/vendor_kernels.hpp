#pragma once
#include <memory>

#include "operators/backend/device_matrix.hpp"

// NVIDIA's library versions of our SpMV, AXPY and DOT (cuSPARSE, cuBLAS), on the same device arrays
// and stream: the baselines of `miniapp bench kernels --backend cuda`. Not used by the time loop.
// Header free of CUDA types; in a build without CUDA every constructor throws miniapp::Error.
namespace miniapp::cuda {

// y = A x by cusparseSpMV (α = 1, β = 0) for one matrix and one pair of vectors, prepared once
// (handle, descriptors, work buffer) so that run() is the library call alone.
class VendorSpmv {
 public:
  // CSR, 32-bit indices, CUSPARSE_SPMV_CSR_ALG1.
  static VendorSpmv csr(void* stream, const CsrView& a, index_t nnz, const double* x, double* y);
  // Sliced ELL, CUSPARSE_SPMV_SELL_ALG1. cuSPARSE's layout is ours (slices of slice_height rows,
  // column-major inside a slice, slice_ptr in entries, the last slice padded with whole rows) except
  // at padding, where it wants column −1: `col` is a's column array rewritten so. a.val is shared.
  static VendorSpmv sell(void* stream, const SellView& a, index_t nnz, const index_t* col, const double* x,
                         double* y);
  VendorSpmv(VendorSpmv&&) noexcept;
  VendorSpmv& operator=(VendorSpmv&&) noexcept;
  ~VendorSpmv();

  void run();  // asynchronous on the stream

 private:
  struct State;
  explicit VendorSpmv(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

// cuBLAS level-1 calls on one stream, host pointer mode.
class VendorBlas {
 public:
  explicit VendorBlas(void* stream);
  VendorBlas(const VendorBlas&) = delete;
  VendorBlas& operator=(const VendorBlas&) = delete;
  ~VendorBlas();

  void axpy(index_t n, double a, const double* x, double* y);  // cublasDaxpy: y += a x; asynchronous
  double dot(index_t n, const double* x, const double* y);    // cublasDdot; synchronous, like ours

 private:
  void* handle_ = nullptr;  // cublasHandle_t
};

}  // namespace miniapp::cuda
