#include "operators/kernels/fused_spmv.hpp"

#include <cstdint>
#include <initializer_list>
#include <type_traits>
#include <utility>

#include "operators/backend/cpu/aip_kernels.hpp"
#include "operators/backend/cpu/kernels.hpp"
#include "operators/backend/cuda/kernels.hpp"
#include "operators/kernels/dispatch.hpp"
#include "operators/kernels/matrix_bytes.hpp"

namespace miniapp {
namespace {

// Checks the matrix, x and y (as spmv does) and each row vector, runs the backends' pass and counts it
// with `row_vectors` vectors read besides x.
template <class Matrix, class Epilogue>
void run_fused(const Executor& exec, const Matrix& a, const Vector& x, Vector& y,
               std::initializer_list<std::pair<const Vector*, const char*>> rows, double row_vectors,
               const Epilogue& e, const char* kernel) {
  detail::check_executor(exec, a.executor(), kernel, "the matrix");
  detail::check_vector(exec, x, a.cols(), kernel, "x");
  detail::check_vector(exec, y, a.rows(), kernel, "y");
  detail::check_distinct(x, y, kernel, "x and y");
  for (const auto& [v, name] : rows) detail::check_vector(exec, *v, a.rows(), kernel, name);
  const auto view = a.view();
  const double seconds = detail::run_timed(
      exec, [&] { cpu::spmv_fused(view, x.data(), e); }, [&] { cuda::spmv_fused(exec.stream(), view, x.data(), e); });
  constexpr SpmvForm form = std::is_same_v<Matrix, DeviceCsr> ? SpmvForm::csr : SpmvForm::sell;
  exec.counters().add_spmv(form, detail::matrix_bytes(a) + 8.0 * a.cols() + 8.0 * (1 + row_vectors) * a.rows(),
                           2.0 * a.nnz() + 3.0 * a.rows(), seconds);
}

template <class Matrix>
void axpby_pass(const Executor& exec, const Matrix& a, const Vector& x, double alpha, const Vector& u, double beta,
                Vector& y) {
  run_fused(exec, a, x, y, {{&u, "u"}}, 1, AxpbyEpilogue{alpha, u.data(), beta, y.data()}, "spmv_axpby");
}

template <class Matrix>
void jacobi_pass(const Executor& exec, const Matrix& a, const Vector& x, const Vector& v, const Vector& b,
                 const Vector& w, Vector& y) {
  // v within x (its rows, on one rank or a rank's block): read with x's gathered entries.
  const auto at = [](const Vector& u) { return reinterpret_cast<std::uintptr_t>(u.data()); };
  const double read = at(v) >= at(x) && at(v) < at(x) + sizeof(double) * x.size() ? 2 : 3;
  run_fused(exec, a, x, y, {{&v, "v"}, {&b, "b"}, {&w, "w"}}, read, JacobiEpilogue{v.data(), b.data(), w.data(), y.data()},
            "jacobi_step");
}

}  // namespace

void spmv_axpby(const Executor& exec, const DeviceSell& a, const Vector& x, double alpha, const Vector& u, double beta,
                Vector& y) {
  axpby_pass(exec, a, x, alpha, u, beta, y);
}

void spmv_axpby(const Executor& exec, const DeviceSellFloat& a, const Vector& x, double alpha, const Vector& u,
                double beta, Vector& y) {
  axpby_pass(exec, a, x, alpha, u, beta, y);
}

void jacobi_step(const Executor& exec, const DeviceSell& a, const Vector& x, const Vector& v, const Vector& b,
                 const Vector& w, Vector& y) {
  jacobi_pass(exec, a, x, v, b, w, y);
}

void jacobi_step(const Executor& exec, const DeviceSellFloat& a, const Vector& x, const Vector& v, const Vector& b,
                 const Vector& w, Vector& y) {
  jacobi_pass(exec, a, x, v, b, w, y);
}

void spmv_axpby(const Executor& exec, const DeviceCsr& a, const Vector& x, double alpha, const Vector& u, double beta,
                Vector& y) {
  axpby_pass(exec, a, x, alpha, u, beta, y);
}

void jacobi_step(const Executor& exec, const DeviceCsr& a, const Vector& x, const Vector& v, const Vector& b,
                 const Vector& w, Vector& y) {
  jacobi_pass(exec, a, x, v, b, w, y);
}

}  // namespace miniapp
