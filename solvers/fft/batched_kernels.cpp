// Front ends of the batched frequency kernels: argument checks, dispatch to the CPU or CUDA backend,
// and the cost-model counters (bytes and flops per call as stated in batched_kernels.hpp).
#include "solvers/fft/batched_kernels.hpp"

#include "operators/kernels/dispatch.hpp"
#include "solvers/fft/batched_cg_scalars.hpp"
#include "solvers/fft/cpu/batched_kernels.hpp"
#include "solvers/fft/cuda/batched_kernels.hpp"

namespace miniapp::fft {

namespace {

// The shape of a call; throws unless the range lies in [0, systems] and every vector has N · S entries.
BatchedShape shape_of(const Executor& exec, index_t rows, index_t systems, SystemRange range, const char* kernel,
                      std::initializer_list<const Vector*> vectors) {
  if (range.begin < 0 || range.end < range.begin || range.end > systems)
    throw Error(std::string(kernel) + ": system range [" + std::to_string(range.begin) + ", " +
                std::to_string(range.end) + ") is outside [0, " + std::to_string(systems) + ")");
  const index_t n = checked_index(static_cast<std::size_t>(rows) * static_cast<std::size_t>(systems), kernel);
  for (const Vector* v : vectors) detail::check_vector(exec, *v, n, kernel, "a batched vector");
  return {rows, systems, range.begin, range.end};
}

void check_per_system(const Executor& exec, const Vector& v, index_t systems, const char* kernel) {
  detail::check_vector(exec, v, systems, kernel, "the per-system scalars");
}

ShiftedPointers pointers(const ShiftedView& m) {
  return {m.a.view(), m.diagonal.data(), m.w.data(), m.shifts.data()};
}

double matrix_bytes(const DeviceCsr& a) { return 12.0 * a.nnz() + 4.0 * (a.rows() + 1); }

}  // namespace

void batched_spmv(const Executor& exec, const DeviceCsr& a, const Vector& x, Vector& y, index_t systems,
                  SystemRange range) {
  constexpr const char* kernel = "batched_spmv";
  detail::check_executor(exec, a.executor(), kernel, "the matrix");
  const BatchedShape shape = shape_of(exec, a.rows(), systems, range, kernel, {&x, &y});
  if (x.data() == y.data()) throw Error(std::string(kernel) + ": y must not alias x");
  const ShiftedPointers m{a.view(), nullptr, nullptr, nullptr};
  const double seconds = detail::run_timed(
      exec, [&] { cpu::batched_spmv(m, shape, x.data(), y.data()); },
      [&] { cuda::batched_spmv(exec.stream(), m, shape, x.data(), y.data()); });
  const double w = shape.width();
  exec.counters().add(KernelKind::spmv, matrix_bytes(a) + 16.0 * a.rows() * w, 2.0 * a.nnz() * w, seconds);
}

void batched_shifted_spmv(const Executor& exec, const ShiftedView& m, const Vector& x, Vector& y, index_t systems,
                          SystemRange range) {
  constexpr const char* kernel = "batched_shifted_spmv";
  detail::check_executor(exec, m.a.executor(), kernel, "the matrix");
  detail::check_vector(exec, m.w, m.a.rows(), kernel, "w");
  check_per_system(exec, m.shifts, systems, kernel);
  const BatchedShape shape = shape_of(exec, m.a.rows(), systems, range, kernel, {&x, &y});
  if (x.data() == y.data()) throw Error(std::string(kernel) + ": y must not alias x");
  const ShiftedPointers p = pointers(m);
  const double seconds = detail::run_timed(
      exec, [&] { cpu::batched_spmv(p, shape, x.data(), y.data()); },
      [&] { cuda::batched_spmv(exec.stream(), p, shape, x.data(), y.data()); });
  const double w = shape.width(), n = m.a.rows();
  exec.counters().add(KernelKind::spmv, matrix_bytes(m.a) + 8.0 * n + 8.0 * w + 16.0 * n * w,
                      2.0 * (m.a.nnz() + n) * w, seconds);
}

void batched_jacobi(const Executor& exec, const ShiftedView& m, const Vector& r, Vector& z, index_t systems,
                    SystemRange range) {
  constexpr const char* kernel = "batched_jacobi";
  detail::check_vector(exec, m.diagonal, m.a.rows(), kernel, "the diagonal");
  detail::check_vector(exec, m.w, m.a.rows(), kernel, "w");
  check_per_system(exec, m.shifts, systems, kernel);
  const BatchedShape shape = shape_of(exec, m.a.rows(), systems, range, kernel, {&r, &z});
  const ShiftedPointers p = pointers(m);
  const double seconds = detail::run_timed(
      exec, [&] { cpu::batched_jacobi(p, shape, r.data(), z.data()); },
      [&] { cuda::batched_jacobi(exec.stream(), p, shape, r.data(), z.data()); });
  const double w = shape.width(), n = m.a.rows();
  exec.counters().add(KernelKind::pointwise, 16.0 * n * (w + 1), 3.0 * n * w, seconds);
}

index_t batched_dot_scratch(const Executor& exec, index_t systems) {
  return exec.backend() == Backend::cuda ? cuda::batched_dot_scratch(systems) : 0;
}

void batched_dot(const Executor& exec, const Vector& u, const Vector* v, index_t systems, SystemRange range,
                 Vector& scratch, Vector& out) {
  constexpr const char* kernel = "batched_dot";
  const index_t rows = systems > 0 ? u.size() / systems : 0;
  const BatchedShape shape = v ? shape_of(exec, rows, systems, range, kernel, {&u, v})
                               : shape_of(exec, rows, systems, range, kernel, {&u});
  check_per_system(exec, out, systems, kernel);
  detail::check_vector(exec, scratch, batched_dot_scratch(exec, systems), kernel, "the scratch");
  const double* vp = v ? v->data() : nullptr;
  const double seconds = detail::run_timed(
      exec, [&] { cpu::batched_dot(shape, u.data(), vp, out.data()); },
      [&] { cuda::batched_dot(exec.stream(), shape, u.data(), vp, scratch.data(), out.data()); });
  const double entries = double(rows) * shape.width();
  exec.counters().add(KernelKind::dot, (v ? 16.0 : 8.0) * entries, 2.0 * entries, seconds);
}

void batched_cg_update(const Executor& exec, const Vector& alpha, const Vector& p, const Vector& q, Vector& x,
                       Vector& r, index_t systems, SystemRange range) {
  constexpr const char* kernel = "batched_cg_update";
  check_per_system(exec, alpha, systems, kernel);
  const index_t rows = systems > 0 ? x.size() / systems : 0;
  const BatchedShape shape = shape_of(exec, rows, systems, range, kernel, {&p, &q, &x, &r});
  const double seconds = detail::run_timed(
      exec, [&] { cpu::batched_cg_update(shape, alpha.data(), p.data(), q.data(), x.data(), r.data()); },
      [&] { cuda::batched_cg_update(exec.stream(), shape, alpha.data(), p.data(), q.data(), x.data(), r.data()); });
  const double entries = double(rows) * shape.width();
  exec.counters().add(KernelKind::axpy, 48.0 * entries, 4.0 * entries, seconds);
}

void batched_direction(const Executor& exec, const Vector& beta, const Vector& z, Vector& p, index_t systems,
                       SystemRange range) {
  constexpr const char* kernel = "batched_direction";
  check_per_system(exec, beta, systems, kernel);
  const index_t rows = systems > 0 ? p.size() / systems : 0;
  const BatchedShape shape = shape_of(exec, rows, systems, range, kernel, {&z, &p});
  const double seconds = detail::run_timed(
      exec, [&] { cpu::batched_direction(shape, beta.data(), z.data(), p.data()); },
      [&] { cuda::batched_direction(exec.stream(), shape, beta.data(), z.data(), p.data()); });
  const double entries = double(rows) * shape.width();
  exec.counters().add(KernelKind::axpy, 24.0 * entries, 2.0 * entries, seconds);
}

void batched_add(const Executor& exec, const Vector& value, Vector& v, index_t systems, SystemRange range) {
  constexpr const char* kernel = "batched_add";
  check_per_system(exec, value, systems, kernel);
  const index_t rows = systems > 0 ? v.size() / systems : 0;
  const BatchedShape shape = shape_of(exec, rows, systems, range, kernel, {&v});
  const double seconds = detail::run_timed(
      exec, [&] { cpu::batched_add(shape, value.data(), v.data()); },
      [&] { cuda::batched_add(exec.stream(), shape, value.data(), v.data()); });
  const double entries = double(rows) * shape.width();
  exec.counters().add(KernelKind::axpy, 16.0 * entries, entries, seconds);
}

void batched_finish_curvature(const Executor& exec, Vector& state, const Vector& sigma, index_t systems,
                              SystemRange range) {
  constexpr const char* kernel = "batched_finish_curvature";
  detail::check_vector(exec, state, batched_cg::slot_count * systems, kernel, "the state");
  check_per_system(exec, sigma, systems, kernel);
  const BatchedShape shape = shape_of(exec, 1, systems, range, kernel, {});
  const double seconds = detail::run_timed(
      exec, [&] { cpu::batched_finish_curvature(shape, state.data(), sigma.data()); },
      [&] { cuda::batched_finish_curvature(exec.stream(), shape, state.data(), sigma.data()); });
  exec.counters().add(KernelKind::pointwise, 32.0 * shape.width(), shape.width(), seconds);
}

void batched_finish_residual(const Executor& exec, Vector& state, const Vector& rho_new, const Vector& gamma,
                             index_t systems, SystemRange range) {
  constexpr const char* kernel = "batched_finish_residual";
  detail::check_vector(exec, state, batched_cg::slot_count * systems, kernel, "the state");
  check_per_system(exec, rho_new, systems, kernel);
  check_per_system(exec, gamma, systems, kernel);
  const BatchedShape shape = shape_of(exec, 1, systems, range, kernel, {});
  const double seconds = detail::run_timed(
      exec, [&] { cpu::batched_finish_residual(shape, state.data(), rho_new.data(), gamma.data()); },
      [&] { cuda::batched_finish_residual(exec.stream(), shape, state.data(), rho_new.data(), gamma.data()); });
  exec.counters().add(KernelKind::pointwise, 96.0 * shape.width(), 4.0 * shape.width(), seconds);
}

}  // namespace miniapp::fft
