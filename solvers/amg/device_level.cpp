#include "solvers/amg/device_level.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "solvers/amg/cuda/level_kernels.hpp"
#include "solvers/amg/device_galerkin.hpp"
#include "solvers/amg/parallel_setup.hpp"
#include "solvers/amg/prolongation.hpp"  // jacobi_weight
#include "solvers/amg/spectral_bound.hpp"
#include "solvers/matrix_checks.hpp"

namespace miniapp::amg {
namespace {

// ‖v‖ as the host's norm: the chunks' sums of squares on the device, added in order here.
double ordered_norm(const Vector& v, Vector& partial) {
  cuda::chunk_sums_of_squares(v.executor().stream(), v.size(), square_sum_chunk, v.data(), partial.data());
  double sum = 0;
  for (double s : partial.to_host()) sum += s;
  return std::sqrt(sum);
}

}  // namespace

std::optional<DeviceCsr> device_filtered_matrix(const DeviceCsr& a, const Vector& d, double threshold) {
  const Executor& exec = a.executor();
  const double threshold_squared = threshold * threshold;
  Array<index_t> counts(exec, a.rows()), row_ptr(exec, a.rows() + 1);
  if (!cuda::filtered_row_counts(exec.stream(), a.view(), d.data(), threshold_squared, counts.data())) return std::nullopt;
  // At most A's entries: the offsets fit.
  const auto nnz = static_cast<index_t>(cuda::row_offsets(exec.stream(), a.rows(), counts.data(), row_ptr.data()));
  Array<index_t> col(exec, nnz);
  Vector val(exec, nnz);
  cuda::filtered_rows(exec.stream(), a.view(), d.data(), threshold_squared, row_ptr.data(), col.data(), val.data());
  return DeviceCsr(a.rows(), a.cols(), std::move(row_ptr), std::move(col), std::move(val));
}

std::vector<double> device_positive_diagonal(const DeviceCsr& a, std::string_view who, Vector& d) {
  cuda::row_diagonal(a.executor().stream(), a.view(), d.data());
  std::vector<double> diagonal = d.to_host();
  require_positive_diagonal(diagonal, who);
  return diagonal;
}

double device_eigenvalue_bound(const DeviceCsr& a, const Vector& d) {
  const Executor& exec = a.executor();
  void* stream = exec.stream();
  const index_t n = a.rows();
  const double gershgorin = cuda::gershgorin_bound(stream, a.view(), d.data());
  Vector scale(exec, n), v(exec, n), u(exec, n), partial(exec, (n + square_sum_chunk - 1) / square_sum_chunk);
  cuda::start_power_iterations(stream, n, d.data(), scale.data(), v.data());
  cuda::scale_and_divide(stream, n, scale.data(), v.data(), ordered_norm(v, partial), u.data());
  // The host's iterations (spectral_bound.cpp), step for step.
  double estimate = 0;
  for (int it = 0; it < power_iterations && bound_safety * estimate < gershgorin; ++it) {
    cuda::scaled_product(stream, a.view(), scale.data(), u.data(), v.data());
    estimate = ordered_norm(v, partial);
    if (!(estimate > 0)) break;
    cuda::scale_and_divide(stream, n, scale.data(), v.data(), estimate, u.data());
  }
  return std::min(bound_safety * estimate, gershgorin);
}

std::optional<DeviceCsr> device_smoothed_prolongation(const DeviceCsr& a_f, const Array<index_t>& of_row, index_t count,
                                                      std::optional<double> known_bound) {
  const Executor& exec = a_f.executor();
  const index_t rows = a_f.rows();
  if (!device_has_room(exec, static_cast<std::size_t>(rows) * (2 * sizeof(index_t) + 2 * sizeof(double))))
    return std::nullopt;
  Vector fd(exec, rows);
  cuda::row_diagonal(exec.stream(), a_f.view(), fd.data());
  const double bound = known_bound ? *known_bound : device_eigenvalue_bound(a_f, fd);
  Array<index_t> t_row_ptr(exec, rows + 1), t_col(exec, rows);
  Vector t_val(exec, rows);
  cuda::tentative_rows(exec.stream(), rows, of_row.data(), t_row_ptr.data(), t_col.data(), t_val.data());
  const DeviceCsr t(rows, count, std::move(t_row_ptr), std::move(t_col), std::move(t_val));
  std::optional<DeviceCsr> p = device_sparse_product(a_f, t);  // A_F T: the sums of each row's aggregates
  if (!p) return std::nullopt;
  cuda::smooth_prolongation_rows(exec.stream(), p->view(), p->values().data(), fd.data(), jacobi_weight(bound),
                                 of_row.data());
  return p;
}

std::optional<DeviceCsr> device_transpose(const DeviceCsr& m) {
  const Executor& exec = m.executor();
  const auto entries = static_cast<std::size_t>(m.nnz());
  // The result, and the entries scattered before they are sorted.
  if (!device_has_room(exec, 2 * entries * (sizeof(index_t) + sizeof(double)) + 2 * (m.cols() + 1) * sizeof(index_t)))
    return std::nullopt;
  Array<index_t> row_ptr(exec, m.cols() + 1), col(exec, m.nnz());
  Vector val(exec, m.nnz());
  cuda::transpose(exec.stream(), m.view(), row_ptr.data(), col.data(), val.data());
  return DeviceCsr(m.cols(), m.rows(), std::move(row_ptr), std::move(col), std::move(val));
}

}  // namespace miniapp::amg
