#include "operators/kernels/cg_kernels.hpp"

#include <array>
#include <string>
#include <utility>
#include <vector>

#include "operators/backend/cpu/kernels.hpp"
#include "operators/backend/cuda/kernels.hpp"
#include "operators/kernels/dispatch.hpp"
#include "operators/kernels/matrix_bytes.hpp"

namespace miniapp {

CgScalars::CgScalars(const Executor& exec)
    : slots_(exec, cg::slot_count), partials_(exec, cg::max_sums * cg::max_partials),
      done_(Array<unsigned>::from_host(exec, std::array<unsigned, 1>{0})) {
  start(0, 0, 1, 0);
}

void CgScalars::start(double rho, double relative_residual, double b_norm, double tolerance) {
  std::array<double, cg::slot_count> s{};
  s[cg::rho] = rho;
  s[cg::relative_residual] = relative_residual;
  s[cg::b_norm] = b_norm;
  s[cg::tolerance] = tolerance;
  s[cg::status] = static_cast<double>(cg::Status::running);
  slots_.copy_from_host(s);
}

CgProgress CgScalars::read() const {
  const std::vector<double> s = values();
  return {static_cast<cg::Status>(static_cast<int>(s[cg::status])), static_cast<int>(s[cg::iterations]),
          s[cg::relative_residual], s[cg::curvature], static_cast<int>(s[cg::loop_runs])};
}

cg::ScalarsView CgScalars::view() { return {slots_.data(), partials_.data(), done_.data()}; }

namespace {

// The scalar block must live where the kernel runs.
cg::ScalarsView checked_view(const Executor& exec, CgScalars& s, const char* kernel) {
  detail::check_executor(exec, s.executor(), kernel, "the scalar block");
  return s.view();
}

}  // namespace

// Bytes as spmv (sELL): stored entries (value + column index), slice pointers, p and q once.
void cg_spmv_dot(const Executor& exec, const DeviceSell& a, const Vector& p, Vector& q, CgScalars& s) {
  constexpr const char* kernel = "cg_spmv_dot";
  detail::check_executor(exec, a.executor(), kernel, "the matrix");
  if (a.rows() != a.cols())
    throw Error(std::string(kernel) + ": the matrix is " + std::to_string(a.rows()) + " × " + std::to_string(a.cols()) +
                ", CG needs a square one");
  detail::check_vector(exec, p, a.rows(), kernel, "p");
  detail::check_vector(exec, q, a.rows(), kernel, "q");
  detail::check_distinct(p, q, kernel, "p and q");
  const cg::ScalarsView v = checked_view(exec, s, kernel);
  const SellView view = a.view();
  const double seconds = detail::run_timed(
      exec, [&] { cpu::cg_spmv_dot(view, p.data(), q.data(), v); },
      [&] { cuda::cg_spmv_dot(exec.stream(), view, p.data(), q.data(), v); });
  const double bytes = detail::matrix_bytes(a) + 16.0 * a.rows();
  exec.counters().add(KernelKind::spmv, bytes, 2.0 * a.nnz() + 2.0 * a.rows(), seconds);
}

void cg_direction_spmv_dot(const Executor& exec, const DeviceSell& a, const Vector& z, Vector& p, Vector& q,
                           CgScalars& s) {
  constexpr const char* kernel = "cg_direction_spmv_dot";
  detail::check_executor(exec, a.executor(), kernel, "the matrix");
  if (a.rows() != a.cols())
    throw Error(std::string(kernel) + ": the matrix is " + std::to_string(a.rows()) + " × " + std::to_string(a.cols()) +
                ", CG needs a square one");
  for (const auto& [vec, what] : {std::pair{&z, "z"}, {&p, "p"}, {&q, "q"}})
    detail::check_vector(exec, *vec, a.rows(), kernel, what);
  detail::check_distinct(z, p, kernel, "z and p");
  detail::check_distinct(z, q, kernel, "z and q");
  detail::check_distinct(p, q, kernel, "p and q");
  const cg::ScalarsView v = checked_view(exec, s, kernel);
  const SellView view = a.view();
  const double seconds = detail::run_timed(
      exec, [&] { cpu::cg_direction_spmv_dot(view, z.data(), p.data(), q.data(), v); },
      [&] { cuda::cg_direction_spmv_dot(exec.stream(), view, z.data(), p.data(), q.data(), v); });
  const double bytes = detail::matrix_bytes(a) + 40.0 * a.rows();
  exec.counters().add(KernelKind::spmv, bytes, 2.0 * a.nnz() + 6.0 * a.rows(), seconds);
}

void cg_update(const Executor& exec, const Vector& p, const Vector& q, Vector& x, Vector& r, CgScalars& s) {
  constexpr const char* kernel = "cg_update";
  const index_t n = x.size();
  for (const auto& [vec, what] : {std::pair{&p, "p"}, {&q, "q"}, {&x, "x"}, {&r, "r"}})
    detail::check_vector(exec, *vec, n, kernel, what);
  detail::check_distinct(x, r, kernel, "x and r");
  const cg::ScalarsView v = checked_view(exec, s, kernel);
  const double seconds = detail::run_timed(
      exec, [&] { cpu::cg_update(n, p.data(), q.data(), x.data(), r.data(), r.data(), v); },
      [&] { cuda::cg_update(exec.stream(), n, p.data(), q.data(), x.data(), r.data(), v); });
  exec.counters().add(KernelKind::axpy, 48.0 * n, 6.0 * n, seconds);
}

void cg_update_jacobi(const Executor& exec, const Vector& d, const Vector& p, const Vector& q, Vector& x,
                      Vector& r, Vector& z, CgScalars& s) {
  constexpr const char* kernel = "cg_update_jacobi";
  const index_t n = x.size();
  for (const auto& [vec, what] : {std::pair{&d, "d"}, {&p, "p"}, {&q, "q"}, {&x, "x"}, {&r, "r"}, {&z, "z"}})
    detail::check_vector(exec, *vec, n, kernel, what);
  detail::check_distinct(x, r, kernel, "x and r");
  detail::check_distinct(x, z, kernel, "x and z");
  detail::check_distinct(r, z, kernel, "r and z");
  const cg::ScalarsView v = checked_view(exec, s, kernel);
  const double seconds = detail::run_timed(
      exec, [&] { cpu::cg_update_jacobi(n, d.data(), p.data(), q.data(), x.data(), r.data(), z.data(), v); },
      [&] { cuda::cg_update_jacobi(exec.stream(), n, d.data(), p.data(), q.data(), x.data(), r.data(), z.data(), v); });
  exec.counters().add(KernelKind::axpy, 64.0 * n, 9.0 * n, seconds);
}

void cg_rho(const Executor& exec, const Vector& r, const Vector& z, CgScalars& s) {
  constexpr const char* kernel = "cg_rho";
  const index_t n = r.size();
  detail::check_vector(exec, r, n, kernel, "r");
  detail::check_vector(exec, z, n, kernel, "z");
  const cg::ScalarsView v = checked_view(exec, s, kernel);
  const double seconds = detail::run_timed(
      exec, [&] { cpu::cg_rho(n, r.data(), z.data(), v); },
      [&] { cuda::cg_rho(exec.stream(), n, r.data(), z.data(), v); });
  exec.counters().add(KernelKind::dot, 16.0 * n, 2.0 * n, seconds);
}

void cg_remove_mean(const Executor& exec, Vector& v, CgScalars& s) {
  constexpr const char* kernel = "cg_remove_mean";
  const index_t n = v.size();
  detail::check_vector(exec, v, n, kernel, "v");
  if (n == 0) throw Error(std::string(kernel) + ": v is empty and has no mean");
  const cg::ScalarsView view = checked_view(exec, s, kernel);
  const double sum_seconds = detail::run_timed(
      exec, [&] { cpu::cg_mean(n, v.data(), view); }, [&] { cuda::cg_mean(exec.stream(), n, v.data(), view); });
  exec.counters().add(KernelKind::dot, 8.0 * n, 1.0 * n, sum_seconds);
  const double subtract_seconds = detail::run_timed(
      exec, [&] { cpu::cg_subtract_mean(n, v.data(), view); },
      [&] { cuda::cg_subtract_mean(exec.stream(), n, v.data(), view); });
  exec.counters().add(KernelKind::axpy, 16.0 * n, 1.0 * n, subtract_seconds);
}

void cg_start(const Executor& exec, const Vector& b, const Vector& r, CgScalars& s, double tolerance,
              int max_iterations) {
  constexpr const char* kernel = "cg_start";
  const index_t n = b.size();
  detail::check_vector(exec, b, n, kernel, "b");
  detail::check_vector(exec, r, n, kernel, "r");
  if (!(tolerance >= 0) || max_iterations < 0)
    throw Error(std::string(kernel) + ": tolerance " + std::to_string(tolerance) + " and iteration cap " +
                std::to_string(max_iterations) + " must not be negative");
  const cg::ScalarsView view = checked_view(exec, s, kernel);
  const double cap = max_iterations;
  const double seconds = detail::run_timed(
      exec, [&] { cpu::cg_start(n, b.data(), r.data(), view, tolerance, cap); },
      [&] { cuda::cg_start(exec.stream(), n, b.data(), r.data(), view, tolerance, cap); });
  exec.counters().add(KernelKind::dot, 16.0 * n, 4.0 * n, seconds);
}

void cg_loop_test(const Executor& exec, CgScalars& s, int body, LoopCondition condition) {
  constexpr const char* kernel = "cg_loop_test";
  if (body < 1) throw Error(std::string(kernel) + ": the loop body has " + std::to_string(body) + " iterations");
  const cg::ScalarsView view = checked_view(exec, s, kernel);
  const double seconds = detail::run_timed(
      exec, [&] { cpu::cg_loop_test(view, body); },
      [&] { cuda::cg_loop_test(exec.stream(), view, body, condition.handle); });
  exec.counters().add(KernelKind::pointwise, 40.0, 0.0, seconds);
}

}  // namespace miniapp
