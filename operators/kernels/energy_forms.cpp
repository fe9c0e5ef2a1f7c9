#include "operators/kernels/energy_forms.hpp"

#include <string>

#include "operators/backend/cpu/kernels.hpp"
#include "operators/backend/cuda/kernels.hpp"
#include "operators/kernels/dispatch.hpp"

namespace miniapp {

void energy_forms(const Executor& exec, const DeviceSell& a, std::span<const Vector* const> values,
                  const Vector* diagonal, std::span<const Vector* const, 3> u, std::span<const Vector* const, 3> u_old,
                  const Vector& w, index_t n, Vector& out) {
  constexpr const char* kernel = "energy_forms";
  detail::check_executor(exec, a.executor(), kernel, "the matrix");
  const int k = static_cast<int>(values.size());
  const int forms = k + (diagonal ? 1 : 0);
  if (forms > max_energy_forms)
    throw Error(std::string(kernel) + ": " + std::to_string(forms) + " forms asked for, at most " +
                std::to_string(max_energy_forms));
  if (diagonal && k == 0)
    throw Error(std::string(kernel) + ": a diagonal without values[0], whose off-diagonal entries it completes");
  if (n < 0 || n > a.rows())
    throw Error(std::string(kernel) + ": " + std::to_string(n) + " rows summed of a matrix with " +
                std::to_string(a.rows()));
  if (a.rows() > a.cols())
    throw Error(std::string(kernel) + ": a matrix of " + std::to_string(a.rows()) + " rows and " +
                std::to_string(a.cols()) + " columns; the rows must be cells among the columns");
  const double* vals[max_energy_forms] = {};
  for (int v = 0; v < k; ++v) {
    if (!values[v]) throw Error(std::string(kernel) + ": value array " + std::to_string(v) + " is null");
    detail::check_vector(exec, *values[v], a.stored_entries(), kernel, "a value array");
    vals[v] = values[v]->data();
  }
  if (diagonal) detail::check_vector(exec, *diagonal, a.stored_entries(), kernel, "the diagonal's values");
  const double* diag = diagonal ? diagonal->data() : nullptr;
  const double* now[3];
  const double* old[3];
  for (int d = 0; d < 3; ++d) {
    detail::check_vector(exec, *u[d], a.cols(), kernel, "u");
    detail::check_vector(exec, *u_old[d], a.cols(), kernel, "u_old");
    now[d] = u[d]->data();
    old[d] = u_old[d]->data();
  }
  detail::check_vector(exec, w, a.rows(), kernel, "w");
  detail::check_vector(exec, out, forms + 1, kernel, "out");
  const SellView view = a.view();
  const double seconds = detail::run_timed(
      exec, [&] { cpu::energy_forms(view, k, vals, diag, now, old, w.data(), n, out.data()); },
      [&] { cuda::energy_forms(exec.stream(), view, k, vals, diag, now, old, w.data(), n, out.data()); });
  const double pattern = k > 0 ? 4.0 * a.stored_entries() + 4.0 * (a.slice_count() + 1) : 0.0;
  const double velocities = k > 0 ? 48.0 * a.cols() : 24.0 * n;
  const double bytes = pattern + 8.0 * k * a.stored_entries() + (diag ? 8.0 * n : 0.0) + velocities + 8.0 * n;
  const double flops = 7.0 * n + forms * 3.0 * (3.0 * a.nnz() + 2.0 * n);
  exec.counters().add(KernelKind::spmv, bytes, flops, seconds);
}

}  // namespace miniapp
