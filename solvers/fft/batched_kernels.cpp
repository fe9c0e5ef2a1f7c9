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

// The checks of a shifted batched SpMV y_s = (A + σ_s W) x_s over `range` (x and y distinct), and its
// shape.
BatchedShape checked_shifted_spmv(const Executor& exec, const ShiftedView& m, const Vector& x, const Vector& y,
                                  index_t systems, SystemRange range, const char* kernel) {
  detail::check_executor(exec, m.a.executor(), kernel, "the matrix");
  detail::check_vector(exec, m.w, m.a.rows(), kernel, "w");
  check_per_system(exec, m.shifts, systems, kernel);
  const BatchedShape shape = shape_of(exec, m.a.rows(), systems, range, kernel, {&x, &y});
  if (x.data() == y.data()) throw Error(std::string(kernel) + ": y must not alias x");
  return shape;
}

// The checks of a kernel with Jacobi's z on the systems of `range` from jacobi_begin (diag(A), w and σ
// read), and its shape.
BatchedShape checked_jacobi_part(const Executor& exec, const ShiftedView& m, index_t systems, SystemRange range,
                                 index_t jacobi_begin, const char* kernel,
                                 std::initializer_list<const Vector*> vectors) {
  check_per_system(exec, m.shifts, systems, kernel);
  detail::check_vector(exec, m.diagonal, m.a.rows(), kernel, "the diagonal");
  detail::check_vector(exec, m.w, m.a.rows(), kernel, "w");
  const BatchedShape shape = shape_of(exec, m.a.rows(), systems, range, kernel, vectors);
  if (jacobi_begin < range.begin || jacobi_begin > range.end)
    throw Error(std::string(kernel) + ": the Jacobi systems start at " + std::to_string(jacobi_begin) +
                ", outside the range [" + std::to_string(range.begin) + ", " + std::to_string(range.end) + ")");
  return shape;
}

// Its bytes: A once, w and the active shifts, x read and y written per active system.
double shifted_spmv_bytes(const ShiftedView& m, const BatchedShape& shape) {
  const double w = shape.width(), n = m.a.rows();
  return matrix_bytes(m.a) + 8.0 * n + 8.0 * w + 16.0 * n * w;
}

}  // namespace

void batched_spmv(const Executor& exec, const DeviceCsr& a, const Vector& x, Vector& y, index_t systems,
                  SystemRange range) {
  constexpr const char* kernel = "batched_spmv";
  detail::check_executor(exec, a.executor(), kernel, "the matrix");
  const BatchedShape shape = shape_of(exec, a.rows(), systems, range, kernel, {&y});
  detail::check_vector(exec, x, batched_size(a.cols(), systems), kernel, "x (columns × systems)");
  if (x.data() == y.data()) throw Error(std::string(kernel) + ": y must not alias x");
  const ShiftedPointers m{a.view(), nullptr, nullptr, nullptr};
  const bool long_rows = a.nnz() >= batched_warp_row_entries * static_cast<double>(a.rows());
  const double seconds = detail::run_timed(
      exec, [&] { cpu::batched_spmv(m, shape, x.data(), y.data()); },
      [&] {
        if (long_rows) cuda::batched_spmv_warp_rows(exec.stream(), m.a, shape, x.data(), y.data());
        else cuda::batched_spmv(exec.stream(), m, shape, x.data(), y.data());
      });
  const double w = shape.width();
  exec.counters().add(KernelKind::spmv, matrix_bytes(a) + 8.0 * (a.rows() + a.cols()) * w, 2.0 * a.nnz() * w,
                      seconds);
}

void batched_shifted_spmv(const Executor& exec, const ShiftedView& m, const Vector& x, Vector& y, index_t systems,
                          SystemRange range) {
  constexpr const char* kernel = "batched_shifted_spmv";
  const BatchedShape shape = checked_shifted_spmv(exec, m, x, y, systems, range, kernel);
  const ShiftedPointers p = pointers(m);
  const double seconds = detail::run_timed(
      exec, [&] { cpu::batched_spmv(p, shape, x.data(), y.data()); },
      [&] { cuda::batched_spmv(exec.stream(), p, shape, x.data(), y.data()); });
  exec.counters().add(KernelKind::spmv, shifted_spmv_bytes(m, shape), 2.0 * (m.a.nnz() + m.a.rows()) * shape.width(),
                      seconds);
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

index_t batched_partials_size(Backend backend, index_t rows, index_t systems) {
  return checked_index(static_cast<std::size_t>(row_tiles(backend, rows).count) * static_cast<std::size_t>(systems),
                       "FFT Poisson column sums");
}

namespace {

void check_partials(const Executor& exec, const Vector& partials, index_t rows, index_t systems, const char* kernel) {
  detail::check_vector(exec, partials, batched_partials_size(exec.backend(), rows, systems), kernel, "the partial sums");
}

void check_owned(index_t owned, index_t rows, const char* kernel) {
  if (owned < 0 || owned > rows)
    throw Error(std::string(kernel) + ": " + std::to_string(owned) + " owned rows of " + std::to_string(rows));
}

}  // namespace

void batched_column_sums(const Executor& exec, const Vector& partials, index_t rows, index_t systems,
                         SystemRange range, Vector& out) {
  constexpr const char* kernel = "batched_column_sums";
  const BatchedShape shape = shape_of(exec, rows, systems, range, kernel, {});
  check_partials(exec, partials, rows, systems, kernel);
  check_per_system(exec, out, systems, kernel);
  const double seconds = detail::run_timed(
      exec, [&] { cpu::batched_column_sums(shape, partials.data(), out.data()); },
      [&] { cuda::batched_column_sums(exec.stream(), shape, partials.data(), out.data()); });
  const double w = shape.width(), tiles = row_tiles(exec.backend(), rows).count;
  exec.counters().add(KernelKind::dot, 8.0 * tiles * w + 8.0 * w, tiles * w, seconds);
}

void batched_dot_partials(const Executor& exec, const Vector& u, const Vector* v, index_t systems,
                          SystemRange range, index_t owned, Vector& partials) {
  constexpr const char* kernel = "batched_dot_partials";
  const index_t rows = systems > 0 ? u.size() / systems : 0;
  const BatchedShape shape = v ? shape_of(exec, rows, systems, range, kernel, {&u, v})
                               : shape_of(exec, rows, systems, range, kernel, {&u});
  check_owned(owned, rows, kernel);
  check_partials(exec, partials, rows, systems, kernel);
  const double* vp = v ? v->data() : nullptr;
  const double seconds = detail::run_timed(
      exec, [&] { cpu::batched_dot_partials(shape, owned, u.data(), vp, partials.data()); },
      [&] { cuda::batched_dot_partials(exec.stream(), shape, owned, u.data(), vp, partials.data()); });
  const double entries = double(owned) * shape.width();
  exec.counters().add(KernelKind::dot, (v ? 16.0 : 8.0) * entries, 2.0 * entries, seconds);
}

void batched_dot(const Executor& exec, const Vector& u, const Vector* v, index_t systems, SystemRange range,
                 Vector& partials, Vector& out) {
  const index_t rows = systems > 0 ? u.size() / systems : 0;
  batched_dot_partials(exec, u, v, systems, range, rows, partials);
  batched_column_sums(exec, partials, rows, systems, range, out);
}

void batched_shifted_spmv_dot(const Executor& exec, const ShiftedView& m, const Vector& x, Vector& y,
                              index_t systems, SystemRange range, index_t owned, Vector& partials) {
  batched_shifted_spmv_dot(exec, m, x, y, systems, range, owned, partials,
                           {0, row_tiles(exec.backend(), m.a.rows()).count});
}

void batched_shifted_spmv_dot(const Executor& exec, const ShiftedView& m, const Vector& x, Vector& y,
                              index_t systems, SystemRange range, index_t owned, Vector& partials, TileSpan tiles) {
  constexpr const char* kernel = "batched_shifted_spmv_dot";
  const BatchedShape shape = checked_shifted_spmv(exec, m, x, y, systems, range, kernel);
  check_owned(owned, m.a.rows(), kernel);
  check_partials(exec, partials, m.a.rows(), systems, kernel);
  const RowTiles all = row_tiles(exec.backend(), m.a.rows());
  if (tiles.first < 0 || tiles.end > all.count || tiles.end < tiles.first)
    throw Error(std::string(kernel) + ": tiles [" + std::to_string(tiles.first) + ", " + std::to_string(tiles.end) +
                ") outside the " + std::to_string(all.count) + " tiles of its rows");
  if (tiles.empty()) return;
  const ShiftedPointers p = pointers(m);
  const double seconds = detail::run_timed(
      exec, [&] { cpu::batched_spmv_dot(p, shape, owned, x.data(), y.data(), partials.data(), tiles); },
      [&] { cuda::batched_spmv_dot(exec.stream(), p, shape, owned, x.data(), y.data(), partials.data(), tiles); });
  // The rows covered, as a share of all: the matrix's bytes and flops are counted in proportion.
  const index_t first_row = tiles.first * all.rows_per_tile;
  const index_t end_row = std::min<index_t>(m.a.rows(), tiles.end * all.rows_per_tile);
  const double share = m.a.rows() > 0 ? static_cast<double>(end_row - first_row) / m.a.rows() : 0.0;
  const double owned_rows = std::max<index_t>(0, std::min(owned, end_row) - first_row);
  const double w = shape.width();
  const double flops = 2.0 * (m.a.nnz() + m.a.rows()) * w * share + 2.0 * owned_rows * w;
  exec.counters().add(KernelKind::spmv, shifted_spmv_bytes(m, shape) * share, flops, seconds);
}

void batched_cg_update_jacobi(const Executor& exec, const ShiftedView& m, const Vector& alpha, const Vector& p,
                              const Vector& q, Vector& x, Vector& r, index_t systems, SystemRange range,
                              index_t jacobi_begin, index_t owned, Vector& rz_partials, Vector& rr_partials) {
  constexpr const char* kernel = "batched_cg_update_jacobi";
  check_per_system(exec, alpha, systems, kernel);
  const BatchedShape shape = checked_jacobi_part(exec, m, systems, range, jacobi_begin, kernel, {&p, &q, &x, &r});
  check_owned(owned, m.a.rows(), kernel);
  check_partials(exec, rz_partials, m.a.rows(), systems, kernel);
  check_partials(exec, rr_partials, m.a.rows(), systems, kernel);
  const ShiftedPointers mp = pointers(m);
  const CgUpdateVectors v{alpha.data(), p.data(), q.data(), x.data(), r.data()};
  const double seconds = detail::run_timed(
      exec, [&] { cpu::batched_cg_update_jacobi(mp, shape, jacobi_begin, owned, v, rz_partials.data(), rr_partials.data()); },
      [&] {
        cuda::batched_cg_update_jacobi(exec.stream(), mp, shape, jacobi_begin, owned, v, rz_partials.data(),
                                       rr_partials.data());
      });
  const double n = m.a.rows(), w = shape.width(), wj = range.end - jacobi_begin;
  exec.counters().add(KernelKind::axpy, 48.0 * n * w + 16.0 * n, 6.0 * n * w + 5.0 * n * wj, seconds);
}

void batched_direction_jacobi(const Executor& exec, const ShiftedView& m, const Vector& beta, const Vector& z,
                              const Vector& r, Vector& p, index_t systems, SystemRange range, index_t jacobi_begin) {
  constexpr const char* kernel = "batched_direction_jacobi";
  check_per_system(exec, beta, systems, kernel);
  const BatchedShape shape = checked_jacobi_part(exec, m, systems, range, jacobi_begin, kernel, {&z, &r, &p});
  const ShiftedPointers mp = pointers(m);
  const DirectionVectors v{beta.data(), z.data(), r.data(), p.data()};
  const double seconds = detail::run_timed(
      exec, [&] { cpu::batched_direction_jacobi(mp, shape, jacobi_begin, v); },
      [&] { cuda::batched_direction_jacobi(exec.stream(), mp, shape, jacobi_begin, v); });
  const double n = m.a.rows(), w = shape.width(), wj = range.end - jacobi_begin;
  exec.counters().add(KernelKind::axpy, 24.0 * n * w + 16.0 * n, 2.0 * n * w + 3.0 * n * wj, seconds);
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

void batched_subtract_mean(const Executor& exec, const Vector& sums, double count, Vector& v, index_t systems,
                           SystemRange range) {
  constexpr const char* kernel = "batched_subtract_mean";
  check_per_system(exec, sums, systems, kernel);
  if (!(count > 0)) throw Error(std::string(kernel) + ": the row count is " + std::to_string(count) + "; expected > 0");
  const index_t rows = systems > 0 ? v.size() / systems : 0;
  const BatchedShape shape = shape_of(exec, rows, systems, range, kernel, {&v});
  const double seconds = detail::run_timed(
      exec, [&] { cpu::batched_subtract_mean(shape, sums.data(), count, v.data()); },
      [&] { cuda::batched_subtract_mean(exec.stream(), shape, sums.data(), count, v.data()); });
  const double entries = double(rows) * shape.width();
  exec.counters().add(KernelKind::axpy, 16.0 * entries + 8.0 * shape.width(), 2.0 * entries, seconds);
}

void batched_finish_curvature(const Executor& exec, Vector& state, const Vector& sigma, index_t tiles,
                              index_t systems, SystemRange range) {
  constexpr const char* kernel = "batched_finish_curvature";
  detail::check_vector(exec, state, batched_cg::slot_count * systems, kernel, "the state");
  detail::check_vector(exec, sigma, tiles * systems, kernel, "the partial sums of σ");
  const BatchedShape shape = shape_of(exec, 1, systems, range, kernel, {});
  const double seconds = detail::run_timed(
      exec, [&] { cpu::batched_finish_curvature(shape, tiles, state.data(), sigma.data()); },
      [&] { cuda::batched_finish_curvature(exec.stream(), shape, tiles, state.data(), sigma.data()); });
  const double w = shape.width();
  exec.counters().add(KernelKind::dot, 8.0 * tiles * w + 24.0 * w, tiles * w + w, seconds);
}

void batched_finish_residual(const Executor& exec, Vector& state, const Vector& rho_new, const Vector& gamma,
                             index_t tiles, index_t systems, SystemRange range) {
  constexpr const char* kernel = "batched_finish_residual";
  detail::check_vector(exec, state, batched_cg::slot_count * systems, kernel, "the state");
  detail::check_vector(exec, rho_new, tiles * systems, kernel, "the partial sums of r·z");
  detail::check_vector(exec, gamma, tiles * systems, kernel, "the partial sums of r·r");
  const BatchedShape shape = shape_of(exec, 1, systems, range, kernel, {});
  const double seconds = detail::run_timed(
      exec, [&] { cpu::batched_finish_residual(shape, tiles, state.data(), rho_new.data(), gamma.data()); },
      [&] { cuda::batched_finish_residual(exec.stream(), shape, tiles, state.data(), rho_new.data(), gamma.data()); });
  const double w = shape.width();
  exec.counters().add(KernelKind::dot, 16.0 * tiles * w + 80.0 * w, 2.0 * tiles * w + 4.0 * w, seconds);
}

void batched_start(const Executor& exec, Vector& state, const Vector& sums, double tolerance, index_t systems) {
  constexpr const char* kernel = "batched_start";
  detail::check_vector(exec, state, batched_cg::slot_count * systems, kernel, "the state");
  detail::check_vector(exec, sums, 3 * systems, kernel, "the sums b·b, r·z, r·r");
  const double seconds = detail::run_timed(
      exec, [&] { cpu::batched_start(systems, state.data(), sums.data(), tolerance); },
      [&] { cuda::batched_start(exec.stream(), systems, state.data(), sums.data(), tolerance); });
  const double s = systems;
  exec.counters().add(KernelKind::dot, (24.0 + 8.0 * static_cast<int>(batched_cg::slot_count)) * s, 4.0 * s, seconds);
}

}  // namespace miniapp::fft
