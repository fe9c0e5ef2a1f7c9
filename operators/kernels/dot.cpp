#include "operators/kernels/dot.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "operators/backend/cpu/kernels.hpp"
#include "operators/backend/cuda/kernels.hpp"
#include "operators/kernels/dispatch.hpp"

namespace miniapp {

namespace {

// Bytes 16n (8n when x and y are the same vector), flops 2n.
void count_dot(const Executor& exec, const Vector& x, const Vector& y, double seconds) {
  const int distinct = x.data() == y.data() ? 1 : 2;
  exec.counters().add(KernelKind::dot, 8.0 * x.size() * distinct, 2.0 * x.size(), seconds);
}

}  // namespace

double dot(const Executor& exec, const Vector& x, const Vector& y) {
  const index_t n = x.size();
  detail::check_vector(exec, x, n, "dot", "x");
  detail::check_vector(exec, y, n, "dot", "y");
  double result = 0.0;
  const double seconds = detail::run_timed(
      exec, [&] { result = cpu::dot(n, x.data(), y.data()); },
      [&] { result = cuda::dot(exec.stream(), n, x.data(), y.data()); });
  count_dot(exec, x, y, seconds);
  exec.counters().add_host_read();
  return result;
}

void dot(const Executor& exec, const Vector& x, const Vector& y, Vector& result) {
  const index_t n = x.size();
  detail::check_vector(exec, x, n, "dot", "x");
  detail::check_vector(exec, y, n, "dot", "y");
  detail::check_vector(exec, result, 1, "dot", "result");
  const double seconds = detail::run_timed(
      exec, [&] { result.data()[0] = cpu::dot(n, x.data(), y.data()); },
      [&] { cuda::dot_async(exec.stream(), n, x.data(), y.data(), result.data()); });
  count_dot(exec, x, y, seconds);
}

// Bytes 8n per distinct vector among x and y, flops 2n per pair.
void multi_dot(const Executor& exec, std::span<const Vector* const> x, std::span<const Vector* const> y,
               std::span<double> out) {
  if (x.size() != y.size() || x.size() != out.size() || x.empty() || x.size() > static_cast<std::size_t>(max_fused_dots))
    throw Error("multi_dot: " + std::to_string(x.size()) + " x, " + std::to_string(y.size()) + " y and " +
                std::to_string(out.size()) + " results; expected the same number, 1 to " +
                std::to_string(max_fused_dots));
  const int k = static_cast<int>(x.size());
  for (int i = 0; i < k; ++i)
    if (!x[i] || !y[i]) throw Error("multi_dot: pair " + std::to_string(i) + " has a null vector");
  const index_t n = x[0]->size();
  std::vector<const double*> xs(k), ys(k);
  for (int i = 0; i < k; ++i) {
    detail::check_vector(exec, *x[i], n, "multi_dot", "x");
    detail::check_vector(exec, *y[i], n, "multi_dot", "y");
    xs[i] = x[i]->data();
    ys[i] = y[i]->data();
  }
  const double seconds = detail::run_timed(
      exec, [&] { cpu::multi_dot(n, k, xs.data(), ys.data(), out.data()); },
      [&] { cuda::multi_dot(exec.stream(), n, k, xs.data(), ys.data(), out.data()); });
  std::vector<const double*> all(xs);
  all.insert(all.end(), ys.begin(), ys.end());
  std::sort(all.begin(), all.end());
  const auto distinct = std::unique(all.begin(), all.end()) - all.begin();
  exec.counters().add(KernelKind::dot, 8.0 * n * double(distinct), 2.0 * n * k, seconds);
  exec.counters().add_host_read();
}

}  // namespace miniapp
