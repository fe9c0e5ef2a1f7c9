#pragma once
#include <cstdint>

#include "core/physics.hpp"
#include "operators/backend/coefficient.hpp"
#include "operators/backend/device_matrix.hpp"
#include "operators/backend/kernel_types.hpp"
#include "operators/backend/spmv_epilogue.hpp"
#include "operators/backend/wall_shear.hpp"

// CUDA implementations of the kernel families declared in operators/kernels/, same contracts as the
// CPU reference (operators/backend/cpu/kernels.hpp); `stream` is the executor's cudaStream_t.
// Kernels are asynchronous except the reductions, which return their result to the host.
// In a build without CUDA these are stubs that throw miniapp::Error.
namespace miniapp::cuda {

void spmv_sell(void* stream, const SellView& a, const double* x, double* y);
void spmv_csr(void* stream, const CsrView& a, const double* x, double* y);
// The same with a group of csr_lanes(a.rows, a.nnz) lanes per row, for rows of many entries (csr_row.cuh).
void spmv_csr_warp_rows(void* stream, const CsrView& a, const double* x, double* y);
// The lanes per row of those products for a CSR matrix of `rows` rows and `nnz` entries: the power of
// two from 4 to 32 (a warp) that covers half the mean row, each lane summing about two entries. A warp
// per row of 19 entries leaves 13 lanes idle and takes twice the warps; a lane per four entries chains
// too many loads.
inline int csr_lanes(index_t rows, std::int64_t nnz) {
  const double half_row = rows > 0 ? 0.5 * static_cast<double>(nnz) / static_cast<double>(rows) : 0;
  int lanes = 4;
  while (lanes < 32 && lanes < half_row) lanes *= 2;
  return lanes;
}
void spmv_sell_multi(void* stream, const SellView& a, int k, const double* const* x, double* const* y);
void spmv_sell_interleaved(void* stream, const SellView& a, int k, const double* const* x, double* y);
void spmv_fused(void* stream, const SellView& a, const double* x, const AxpbyEpilogue& e);
void spmv_fused(void* stream, const SellView& a, const double* x, const JacobiEpilogue& e);
void spmv_fused(void* stream, const SellFloatView& a, const double* x, const AxpbyEpilogue& e);
void spmv_fused(void* stream, const SellFloatView& a, const double* x, const JacobiEpilogue& e);
// CSR: a group of csr_lanes lanes per row (for rows of many entries).
void spmv_fused(void* stream, const CsrView& a, const double* x, const AxpbyEpilogue& e);
void spmv_fused(void* stream, const CsrView& a, const double* x, const JacobiEpilogue& e);

void axpby(void* stream, index_t n, Coefficient a, const double* x, Coefficient b, double* y);
void waxpby(void* stream, index_t n, Coefficient a, const double* x, Coefficient b, const double* y, double* w);
void pointwise_multiply(void* stream, index_t n, const double* x, const double* y, double* z);
void accumulate_product(void* stream, index_t n, double a, const double* x, const double* y, double* z);
void fill(void* stream, index_t n, double value, double* y);
void copy(void* stream, index_t n, const double* x, double* y);

double dot(void* stream, index_t n, const double* x, const double* y);
// *result = x · y, result in device memory: asynchronous, no host round trip; the same kernel and
// summation order as dot.
void dot_async(void* stream, index_t n, const double* x, const double* y, double* result);
void multi_dot(void* stream, index_t n, int k, const double* const* x, const double* const* y, double* out);
// out[i] = x[i] · y[i] with out in device memory: asynchronous, the same kernel and order as multi_dot.
void multi_dot_async(void* stream, index_t n, int k, const double* const* x, const double* const* y, double* out);

}  // namespace miniapp::cuda

// Flow kernels (operators/kernels/flow_kernels.hpp); min_ratio and max_abs are synchronous.
namespace miniapp::cuda {

void eddy_viscosity(void* stream, index_t n, LesModel model, double constant, const double* const* gradient,
                    const double* filter_width, double* nu_t);
double min_ratio(void* stream, index_t n, const double* x, const double* y);
void min_ratio_async(void* stream, index_t n, const double* x, const double* y, double* result);
double max_abs(void* stream, index_t n, const double* x);
void max_abs_async(void* stream, index_t n, const double* x, double* result);
void abs_value(void* stream, index_t n, const double* x, double* y);
void wall_shear(void* stream, index_t n, const wall::FacePointers& faces, double scale, double nu, double* tau,
                double* yplus);
// The energy and the budget's quadratic forms into `out` in device memory (asynchronous).
void energy_forms(void* stream, const SellView& a, int k, const double* const* values, const double* diagonal,
                  const double* const* u, const double* const* u_old, const double* w, index_t n, double* out);

}  // namespace miniapp::cuda

// Fused conjugate-gradient kernels (operators/kernels/cg_kernels.hpp), asynchronous: the reductions
// end in the scalar block `s` in device memory, not on the host.
namespace miniapp::cg {
struct ScalarsView;
}
namespace miniapp::cuda {

void cg_spmv_dot(void* stream, const SellView& a, const double* p, double* q, const cg::ScalarsView& s);
void cg_update(void* stream, index_t n, const double* p, const double* q, double* x, double* r,
               const cg::ScalarsView& s);
void cg_update_jacobi(void* stream, index_t n, const double* d, const double* p, const double* q, double* x,
                      double* r, double* z, const cg::ScalarsView& s);
void cg_rho(void* stream, index_t n, const double* r, const double* z, const cg::ScalarsView& s);
void cg_direction_spmv_dot(void* stream, const SellView& a, const double* z, double* p, double* q,
                           const cg::ScalarsView& s);
// Solve set-up and device loop (operators/kernels/cg_kernels.hpp): mean(v) into the mean slot, and
// v ← v − that mean; ‖b‖ and the initial residual test; the loop's condition (`loop`: a conditional
// handle, 0 outside a loop).
void cg_mean(void* stream, index_t n, const double* v, const cg::ScalarsView& s);
void cg_subtract_mean(void* stream, index_t n, double* v, const cg::ScalarsView& s);
void cg_start(void* stream, index_t n, const double* b, const double* r, const cg::ScalarsView& s, double tolerance,
              double max_iterations);
void cg_loop_test(void* stream, const cg::ScalarsView& s, int body, std::uint64_t loop);

}  // namespace miniapp::cuda

// Set-up: rows [first, first + count) of a sELL matrix (slice_ptr on the device) written from the
// same rows in CSR, copied to the device as they are: row_ptr holds the CSR offsets of those below
// matrix_rows and the one after them (rows past matrix_rows are the last slice's padding), offsets
// into csr_col and csr_val less first_entry. col null: the values alone (csr_col unread). Asynchronous
// on `stream`.
namespace miniapp::cuda {

struct SellFillRows {
  index_t first, count, matrix_rows, matrix_cols, slice_height, first_entry;
};
void fill_sell(void* stream, const SellFillRows& rows, const index_t* slice_ptr, const index_t* row_ptr,
               const index_t* csr_col, const double* csr_val, index_t* col, double* val);

// The slice offsets of sell_slice_offsets for a CSR matrix whose offsets row_ptr (rows + 1) are on the
// device: written to slice_ptr (one per slice and one more); returns the stored entries, padding
// included, or throws miniapp::Error when they do not fit in index_t. Synchronous.
index_t sell_slice_offsets(void* stream, const index_t* row_ptr, index_t rows, index_t slice_height, index_t* slice_ptr);

}  // namespace miniapp::cuda

// Indexed copies (operators/kernels/gather.hpp), asynchronous on `stream`.
namespace miniapp::cuda {

void gather(void* stream, index_t n, const index_t* index, const double* x, double* y);
void scatter(void* stream, index_t n, const index_t* index, const double* x, double* y);

}  // namespace miniapp::cuda
