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

namespace {

// The pairs of a multi_dot, checked (same count, 1 to max_fused_dots, same length): their data and
// the count of distinct vectors among them (each is read once).
struct DotPairs {
  index_t n = 0;
  std::vector<const double*> x, y;
  double distinct = 0;
};

DotPairs check_pairs(const Executor& exec, std::span<const Vector* const> x, std::span<const Vector* const> y,
                     std::size_t results) {
  if (x.size() != y.size() || x.size() != results || x.empty() || x.size() > static_cast<std::size_t>(max_fused_dots))
    throw Error("multi_dot: " + std::to_string(x.size()) + " x, " + std::to_string(y.size()) + " y and " +
                std::to_string(results) + " results; expected the same number, 1 to " +
                std::to_string(max_fused_dots));
  const int k = static_cast<int>(x.size());
  for (int i = 0; i < k; ++i)
    if (!x[i] || !y[i]) throw Error("multi_dot: pair " + std::to_string(i) + " has a null vector");
  DotPairs p;
  p.n = x[0]->size();
  for (int i = 0; i < k; ++i) {
    detail::check_vector(exec, *x[i], p.n, "multi_dot", "x");
    detail::check_vector(exec, *y[i], p.n, "multi_dot", "y");
    p.x.push_back(x[i]->data());
    p.y.push_back(y[i]->data());
  }
  std::vector<const double*> all(p.x);
  all.insert(all.end(), p.y.begin(), p.y.end());
  std::sort(all.begin(), all.end());
  p.distinct = static_cast<double>(std::unique(all.begin(), all.end()) - all.begin());
  return p;
}

// Bytes 8n per distinct vector among x and y, flops 2n per pair.
void count_multi_dot(const Executor& exec, const DotPairs& p, double seconds) {
  exec.counters().add(KernelKind::dot, 8.0 * p.n * p.distinct, 2.0 * p.n * double(p.x.size()), seconds);
}

}  // namespace

void multi_dot(const Executor& exec, std::span<const Vector* const> x, std::span<const Vector* const> y,
               std::span<double> out) {
  const DotPairs p = check_pairs(exec, x, y, out.size());
  const int k = static_cast<int>(p.x.size());
  const double seconds = detail::run_timed(
      exec, [&] { cpu::multi_dot(p.n, k, p.x.data(), p.y.data(), out.data()); },
      [&] { cuda::multi_dot(exec.stream(), p.n, k, p.x.data(), p.y.data(), out.data()); });
  count_multi_dot(exec, p, seconds);
  exec.counters().add_host_read();
}

void multi_dot(const Executor& exec, std::span<const Vector* const> x, std::span<const Vector* const> y,
               Vector& result) {
  const DotPairs p = check_pairs(exec, x, y, static_cast<std::size_t>(result.size()));
  detail::check_vector(exec, result, result.size(), "multi_dot", "result");
  const int k = static_cast<int>(p.x.size());
  const double seconds = detail::run_timed(
      exec, [&] { cpu::multi_dot(p.n, k, p.x.data(), p.y.data(), result.data()); },
      [&] { cuda::multi_dot_async(exec.stream(), p.n, k, p.x.data(), p.y.data(), result.data()); });
  count_multi_dot(exec, p, seconds);
}

}  // namespace miniapp
