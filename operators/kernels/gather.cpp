#include "operators/kernels/gather.hpp"

#include "operators/backend/cpu/kernels.hpp"
#include "operators/backend/cuda/kernels.hpp"
#include "operators/kernels/dispatch.hpp"

namespace miniapp {

// Bytes 20n (4 index + 8 read + 8 write per entry), no flops.
void gather(const Executor& exec, const Array<index_t>& index, const Vector& x, Vector& y) {
  const index_t n = index.size();
  detail::check_executor(exec, index.executor(), "gather", "index");
  detail::check_vector(exec, y, n, "gather", "y");
  detail::check_executor(exec, x.executor(), "gather", "x");
  const double seconds = detail::run_timed(
      exec, [&] { cpu::gather(n, index.data(), x.data(), y.data()); },
      [&] { cuda::gather(exec.stream(), n, index.data(), x.data(), y.data()); });
  exec.counters().add(KernelKind::copy, 20.0 * n, 0.0, seconds);
}

// Bytes 20n, no flops.
void scatter(const Executor& exec, const Array<index_t>& index, const Vector& x, Vector& y) {
  const index_t n = index.size();
  detail::check_executor(exec, index.executor(), "scatter", "index");
  detail::check_vector(exec, x, n, "scatter", "x");
  detail::check_executor(exec, y.executor(), "scatter", "y");
  const double seconds = detail::run_timed(
      exec, [&] { cpu::scatter(n, index.data(), x.data(), y.data()); },
      [&] { cuda::scatter(exec.stream(), n, index.data(), x.data(), y.data()); });
  exec.counters().add(KernelKind::copy, 20.0 * n, 0.0, seconds);
}

}  // namespace miniapp
