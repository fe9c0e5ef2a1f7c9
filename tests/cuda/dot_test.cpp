// CUDA dot products against the CPU reference. The two backends sum in different orders, so the
// tolerance is relative to Σ|x_i y_i|, the scale of the rounding error (the dot itself may cancel).
// Lengths cover n = 0, 1, one partial block, and more elements than the first pass has threads.
#include <catch2/catch.hpp>

#include "operators/backend/cpu/kernels.hpp"
#include "operators/backend/cuda/kernels.hpp"
#include "tests/cuda/cuda_test_support.hpp"

namespace miniapp {
namespace {

double abs_dot(const std::vector<double>& x, const std::vector<double>& y) {
  double sum = 0;
  for (std::size_t i = 0; i < x.size(); ++i) sum += std::abs(x[i] * y[i]);
  return sum > 0 ? sum : 1.0;
}

TEST_CASE("CUDA dot matches the CPU reference and is deterministic", "[cuda][dot]") {
  const index_t n = GENERATE(0, 1, 200, test::large_n, 1000003);
  CAPTURE(n);
  const Executor cpu = Executor::cpu(), gpu = Executor::cuda();
  const std::vector<double> xh = test::random_vector(n, 31), yh = test::random_vector(n, 32);
  const test::Mirrored x(cpu, gpu, xh), y(cpu, gpu, yh);
  const double want = cpu::dot(n, x.cpu.data(), y.cpu.data());
  const double got = cuda::dot(gpu.stream(), n, x.gpu.data(), y.gpu.data());
  CHECK(std::abs(got - want) <= test::tolerance * abs_dot(xh, yh));
  CHECK(cuda::dot(gpu.stream(), n, x.gpu.data(), y.gpu.data()) == got);  // bitwise: same order again
}

TEST_CASE("CUDA multi_dot matches the CPU reference for 1 to 4 pairs", "[cuda][dot]") {
  const int k = GENERATE(1, 2, 3, 4);
  const index_t n = GENERATE(1, test::large_n, 1000003);
  CAPTURE(k, n);
  const Executor cpu = Executor::cpu(), gpu = Executor::cuda();
  std::vector<std::vector<double>> host;
  std::vector<test::Mirrored> v;
  for (int j = 0; j < 5; ++j) {
    host.push_back(test::random_vector(n, 40 + j));
    v.emplace_back(cpu, gpu, host.back());
  }
  // Pairs (0,1), (0,0), (2,3), (4,1): a vector shared between pairs, and a vector with itself.
  const int pairs[4][2] = {{0, 1}, {0, 0}, {2, 3}, {4, 1}};
  std::vector<const double*> x_cpu, y_cpu, x_gpu, y_gpu;
  for (int j = 0; j < k; ++j) {
    x_cpu.push_back(v[pairs[j][0]].cpu.data());
    y_cpu.push_back(v[pairs[j][1]].cpu.data());
    x_gpu.push_back(v[pairs[j][0]].gpu.data());
    y_gpu.push_back(v[pairs[j][1]].gpu.data());
  }
  double want[4], got[4];
  cpu::multi_dot(n, k, x_cpu.data(), y_cpu.data(), want);
  cuda::multi_dot(gpu.stream(), n, k, x_gpu.data(), y_gpu.data(), got);
  for (int j = 0; j < k; ++j) {
    CAPTURE(j);
    CHECK(std::abs(got[j] - want[j]) <= test::tolerance * abs_dot(host[pairs[j][0]], host[pairs[j][1]]));
    CHECK(cuda::dot(gpu.stream(), n, x_gpu[j], y_gpu[j]) == got[j]);  // same order fused or alone
  }
}

TEST_CASE("CUDA multi_dot of empty vectors is zero and more than 4 pairs are rejected", "[cuda][dot]") {
  const Executor gpu = Executor::cuda();
  Vector x(gpu, 8);
  const std::vector<const double*> xs(5, x.data());
  double out[5] = {1, 1, 1, 1, 1};
  cuda::multi_dot(gpu.stream(), 0, 4, xs.data(), xs.data(), out);
  CHECK(std::vector<double>(out, out + 4) == std::vector<double>(4, 0.0));
  CHECK_THROWS_WITH(cuda::multi_dot(gpu.stream(), 8, 5, xs.data(), xs.data(), out), Catch::Contains("5 pairs"));
  CHECK_THROWS_AS(cuda::multi_dot(gpu.stream(), 8, 0, xs.data(), xs.data(), out), Error);
}

}  // namespace
}  // namespace miniapp
