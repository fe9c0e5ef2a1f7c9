#pragma once
#include "core/physics.hpp"
#include "operators/backend/device_matrix.hpp"
#include "operators/backend/spmv_epilogue.hpp"
#include "operators/backend/wall_shear.hpp"

// CPU (OpenMP) implementations of the kernel families declared in operators/kernels/. The reference
// backend: every other backend is tested against these. Called only through the front ends.
namespace miniapp::cpu {

void spmv_sell(const SellView& a, const double* x, double* y);
void spmv_csr(const CsrView& a, const double* x, double* y);
void spmv_sell_multi(const SellView& a, int k, const double* const* x, double* const* y);
void spmv_sell_interleaved(const SellView& a, int k, const double* const* x, double* y);
// One pass of A x, each row's product handed to the epilogue (the same sums as spmv_sell).
void spmv_fused(const SellView& a, const double* x, const AxpbyEpilogue& e);
void spmv_fused(const SellView& a, const double* x, const JacobiEpilogue& e);
void spmv_fused(const CsrView& a, const double* x, const AxpbyEpilogue& e);
void spmv_fused(const CsrView& a, const double* x, const JacobiEpilogue& e);

void axpby(index_t n, double a, const double* x, double b, double* y);
void waxpby(index_t n, double a, const double* x, double b, const double* y, double* w);
void pointwise_multiply(index_t n, const double* x, const double* y, double* z);
void accumulate_product(index_t n, double a, const double* x, const double* y, double* z);
void fill(index_t n, double value, double* y);
void copy(index_t n, const double* x, double* y);

double dot(index_t n, const double* x, const double* y);
void multi_dot(index_t n, int k, const double* const* x, const double* const* y, double* out);

}  // namespace miniapp::cpu

// Flow kernels (operators/kernels/flow_kernels.hpp). `gradient` holds the 9 component arrays, g_ab at [3a + b].
namespace miniapp::cpu {

void eddy_viscosity(index_t n, LesModel model, double constant, const double* const* gradient,
                    const double* filter_width, double* nu_t);
double min_ratio(index_t n, const double* x, const double* y);
double max_abs(index_t n, const double* x);
void abs_value(index_t n, const double* x, double* y);
void wall_shear(index_t n, const wall::FacePointers& faces, double scale, double nu, double* tau, double* yplus);
// The energy and the budget's quadratic forms (operators/kernels/energy_forms.hpp); values[v], v < k;
// `diagonal` may be null.
void energy_forms(const SellView& a, int k, const double* const* values, const double* diagonal,
                  const double* const* u, const double* const* u_old, const double* w, index_t n, double* out);

}  // namespace miniapp::cpu

// Fused conjugate-gradient kernels (operators/kernels/cg_kernels.hpp); `s` is the solve's scalar
// block (operators/backend/cg_scalars.hpp). Each returns at once when the block's status is not running.
namespace miniapp::cg {
struct ScalarsView;
}
namespace miniapp::cpu {

void cg_spmv_dot(const SellView& a, const double* p, double* q, const cg::ScalarsView& s);
void cg_direction_spmv_dot(const SellView& a, const double* z, double* p, double* q, const cg::ScalarsView& s);
// r_new = r − α q (r_new may be r: the front end's cg_update is in place; AIP's advancing apply is not).
void cg_update(index_t n, const double* p, const double* q, double* x, const double* r, double* r_new,
               const cg::ScalarsView& s);
void cg_update_jacobi(index_t n, const double* d, const double* p, const double* q, double* x, double* r, double* z,
                      const cg::ScalarsView& s);
void cg_rho(index_t n, const double* r, const double* z, const cg::ScalarsView& s);
// Solve set-up and loop test (operators/kernels/cg_kernels.hpp); these run whatever the status.
void cg_mean(index_t n, const double* v, const cg::ScalarsView& s);
void cg_subtract_mean(index_t n, double* v, const cg::ScalarsView& s);
void cg_start(index_t n, const double* b, const double* r, const cg::ScalarsView& s, double tolerance,
              double max_iterations);
void cg_loop_test(const cg::ScalarsView& s, int body);

}  // namespace miniapp::cpu

// Indexed copies (operators/kernels/gather.hpp): y[i] = x[index[i]] and y[index[i]] = x[i], i < n.
namespace miniapp::cpu {

void gather(index_t n, const index_t* index, const double* x, double* y);
void scatter(index_t n, const index_t* index, const double* x, double* y);

}  // namespace miniapp::cpu
