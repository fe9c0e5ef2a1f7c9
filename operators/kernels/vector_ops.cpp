#include "operators/kernels/vector_ops.hpp"

#include "operators/backend/cpu/kernels.hpp"
#include "operators/backend/cuda/kernels.hpp"
#include "operators/kernels/dispatch.hpp"

namespace miniapp {
namespace {

// AXPY-class traffic: 8 bytes per entry of each input actually read (a plain zero coefficient skips
// its input) plus the write; flops: a product per read input and an add when both are read.
void count_axpy(const Executor& exec, index_t n, Coefficient a, Coefficient b, double seconds) {
  const int reads = (a.is_plain_zero() ? 0 : 1) + (b.is_plain_zero() ? 0 : 1);
  const double flops = reads == 2 ? 3.0 * n : reads * double(n);
  exec.counters().add(KernelKind::axpy, 8.0 * n * (reads + 1), flops, seconds);
}

}  // namespace

// Bytes 24n (16n when a or b is a plain 0), flops 3n (n when a or b is a plain 0). The CPU kernels
// run now, in host memory: a coefficient in memory is read here.
void axpby(const Executor& exec, Coefficient a, const Vector& x, Coefficient b, Vector& y) {
  const index_t n = y.size();
  detail::check_vector(exec, y, n, "axpby", "y");
  detail::check_vector(exec, x, n, "axpby", "x");
  const double seconds = detail::run_timed(
      exec, [&] { cpu::axpby(n, a.host_value(), x.data(), b.host_value(), y.data()); },
      [&] { cuda::axpby(exec.stream(), n, a, x.data(), b, y.data()); });
  count_axpy(exec, n, a, b, seconds);
}

// Bytes 24n (16n when a or b is a plain 0), flops 3n (n when a or b is a plain 0).
void waxpby(const Executor& exec, Coefficient a, const Vector& x, Coefficient b, const Vector& y, Vector& w) {
  const index_t n = w.size();
  detail::check_vector(exec, w, n, "waxpby", "w");
  detail::check_vector(exec, x, n, "waxpby", "x");
  detail::check_vector(exec, y, n, "waxpby", "y");
  const double seconds = detail::run_timed(
      exec, [&] { cpu::waxpby(n, a.host_value(), x.data(), b.host_value(), y.data(), w.data()); },
      [&] { cuda::waxpby(exec.stream(), n, a, x.data(), b, y.data(), w.data()); });
  count_axpy(exec, n, a, b, seconds);
}

Coefficient entry_of(const Vector& v, index_t i) {
  if (i < 0 || i >= v.size())
    throw Error("entry_of: entry " + std::to_string(i) + " of a vector of " + std::to_string(v.size()));
  return Coefficient::in_memory(v.data() + i);
}

// Bytes 24n, flops n.
void pointwise_multiply(const Executor& exec, const Vector& x, const Vector& y, Vector& z) {
  const index_t n = z.size();
  detail::check_vector(exec, z, n, "pointwise_multiply", "z");
  detail::check_vector(exec, x, n, "pointwise_multiply", "x");
  detail::check_vector(exec, y, n, "pointwise_multiply", "y");
  const double seconds = detail::run_timed(
      exec, [&] { cpu::pointwise_multiply(n, x.data(), y.data(), z.data()); },
      [&] { cuda::pointwise_multiply(exec.stream(), n, x.data(), y.data(), z.data()); });
  exec.counters().add(KernelKind::pointwise, 24.0 * n, double(n), seconds);
}

// Bytes 32n, flops 3n.
void accumulate_product(const Executor& exec, double a, const Vector& x, const Vector& y, Vector& z) {
  const index_t n = z.size();
  detail::check_vector(exec, z, n, "accumulate_product", "z");
  detail::check_vector(exec, x, n, "accumulate_product", "x");
  detail::check_vector(exec, y, n, "accumulate_product", "y");
  const double seconds = detail::run_timed(
      exec, [&] { cpu::accumulate_product(n, a, x.data(), y.data(), z.data()); },
      [&] { cuda::accumulate_product(exec.stream(), n, a, x.data(), y.data(), z.data()); });
  exec.counters().add(KernelKind::pointwise, 32.0 * n, 3.0 * n, seconds);
}

// Bytes 8n, no flops.
void fill(const Executor& exec, double value, Vector& y) {
  const index_t n = y.size();
  detail::check_vector(exec, y, n, "fill", "y");
  const double seconds = detail::run_timed(
      exec, [&] { cpu::fill(n, value, y.data()); }, [&] { cuda::fill(exec.stream(), n, value, y.data()); });
  exec.counters().add(KernelKind::pointwise, 8.0 * n, 0.0, seconds);
}

// Bytes 16n, no flops.
void copy(const Executor& exec, const Vector& x, Vector& y) {
  const index_t n = y.size();
  detail::check_vector(exec, y, n, "copy", "y");
  detail::check_vector(exec, x, n, "copy", "x");
  const double seconds = detail::run_timed(
      exec, [&] { cpu::copy(n, x.data(), y.data()); }, [&] { cuda::copy(exec.stream(), n, x.data(), y.data()); });
  exec.counters().add(KernelKind::copy, 16.0 * n, 0.0, seconds);
}

}  // namespace miniapp
