// CUDA dot products against the CPU reference. The two backends sum in different orders, so the
// tolerance is relative to Σ|x_i y_i|, the scale of the rounding error (the dot itself may cancel).
// Lengths cover n = 0, 1, 2, 3 (the double2 loop and its odd tail), one partial block, and more
// elements than the bounded grid has threads; arrays aligned or starting at an odd element.
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
  const index_t n = GENERATE(0, 1, 2, 3, 200, test::large_n, 1000003);
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
  const index_t n = GENERATE(1, 2, 3, test::large_n, 1000003);
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
  // Into device memory: the same values bitwise.
  Vector into(gpu, k);
  cuda::multi_dot_async(gpu.stream(), n, k, x_gpu.data(), y_gpu.data(), into.data());
  const std::vector<double> queued = into.to_host();
  for (int j = 0; j < k; ++j) CHECK(queued[j] == got[j]);
}

TEST_CASE("CUDA dot does not depend on the alignment of its arrays", "[cuda][dot]") {
  // The same values at a 16-byte boundary and 8 bytes past one: 16-byte and 8-byte loads must give
  // the same sum, bitwise, and match the CPU on the misaligned view.
  const index_t n = GENERATE(1, 2, 3, test::large_n, 1000003);
  CAPTURE(n);
  const Executor cpu = Executor::cpu(), gpu = Executor::cuda();
  std::vector<double> xh = test::random_vector(n, 51), yh = test::random_vector(n, 52);
  const test::Mirrored x(cpu, gpu, xh), y(cpu, gpu, yh);
  xh.insert(xh.begin(), 0.0);
  yh.insert(yh.begin(), 0.0);
  const test::Mirrored x1(cpu, gpu, xh), y1(cpu, gpu, yh);
  const double aligned = cuda::dot(gpu.stream(), n, x.gpu.data(), y.gpu.data());
  const double misaligned = cuda::dot(gpu.stream(), n, x1.gpu.data() + 1, y1.gpu.data() + 1);
  CHECK(misaligned == aligned);
  const double want = cpu::dot(n, x1.cpu.data() + 1, y1.cpu.data() + 1);
  xh.erase(xh.begin());
  yh.erase(yh.begin());
  CHECK(std::abs(misaligned - want) <= test::tolerance * abs_dot(xh, yh));
  const double* xs[2] = {x1.gpu.data() + 1, x.gpu.data()};
  const double* ys[2] = {y1.gpu.data() + 1, y.gpu.data()};
  double fused[2];
  cuda::multi_dot(gpu.stream(), n, 2, xs, ys, fused);  // one misaligned pair: 8-byte path for both
  CHECK(fused[0] == aligned);
  CHECK(fused[1] == aligned);
}

TEST_CASE("CUDA dot_async leaves in device memory the value of the synchronous dot, bitwise", "[cuda][dot]") {
  const index_t n = GENERATE(0, 1, 3, test::large_n, 1000003);
  CAPTURE(n);
  const Executor gpu = Executor::cuda();
  const Vector x = Vector::from_host(gpu, test::random_vector(n, 61)), y = Vector::from_host(gpu, test::random_vector(n, 62));
  Vector result = Vector::from_host(gpu, test::nan_vector(2));
  cuda::dot_async(gpu.stream(), n, x.data(), y.data(), result.data());
  const std::vector<double> got = result.to_host();
  CHECK(got[0] == cuda::dot(gpu.stream(), n, x.data(), y.data()));
  CHECK(std::isnan(got[1]));  // one entry written, nothing past it
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
