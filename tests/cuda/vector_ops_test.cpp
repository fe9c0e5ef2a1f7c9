// CUDA AXPY-family and pointwise kernels against the CPU reference, for n = 0, 1, 2, 3 (the double2
// loop and its odd tail), a length of several hundred blocks and one longer than the bounded grid,
// on aligned arrays and on views starting at an odd element (8-byte path), including the
// zero-coefficient cases that must not read NaN inputs.
#include <catch2/catch.hpp>

#include "operators/backend/cpu/kernels.hpp"
#include "operators/backend/cuda/kernels.hpp"
#include "tests/cuda/cuda_test_support.hpp"

namespace miniapp {
namespace {

struct VectorFixture {
  index_t n;
  Executor cpu = Executor::cpu(), gpu = Executor::cuda();
  test::Mirrored x, y, w;
  explicit VectorFixture(index_t size)
      : n(size),
        x(cpu, gpu, test::random_vector(size, 21)),
        y(cpu, gpu, test::random_vector(size, 22)),
        w(cpu, gpu, test::nan_vector(size)) {}
  // Replaces x or y on both backends by NaN: inputs that must not be read.
  void poison(test::Mirrored& v) { v = test::Mirrored(cpu, gpu, test::nan_vector(n)); }
};

void check_close(const Vector& gpu, const Vector& cpu) {
  CHECK(test::relative_difference(gpu.to_host(), cpu.to_host()) <= test::tolerance);
}

TEST_CASE("CUDA axpby matches the CPU reference", "[cuda][vector_ops]") {
  const index_t n = GENERATE(as<index_t>{}, test::large_n, 3000001, 3, 2, 1, 0);
  // (a, b): general, b = 0 (y not read: NaN there), a = 0 (x not read), both 0.
  const auto [a, b] = GENERATE(std::pair{0.75, -1.25}, std::pair{2.0, 0.0}, std::pair{0.0, -3.0}, std::pair{0.0, 0.0});
  CAPTURE(n, a, b);
  VectorFixture f(n);
  if (b == 0.0) f.poison(f.y);
  if (a == 0.0) f.poison(f.x);
  cpu::axpby(n, a, f.x.cpu.data(), b, f.y.cpu.data());
  cuda::axpby(f.gpu.stream(), n, a, f.x.gpu.data(), b, f.y.gpu.data());
  check_close(f.y.gpu, f.y.cpu);
}

TEST_CASE("CUDA waxpby matches the CPU reference", "[cuda][vector_ops]") {
  const index_t n = GENERATE(as<index_t>{}, test::large_n, 3, 2, 1, 0);
  const auto [a, b] = GENERATE(std::pair{0.75, -1.25}, std::pair{2.0, 0.0}, std::pair{0.0, -3.0}, std::pair{0.0, 0.0});
  CAPTURE(n, a, b);
  VectorFixture f(n);
  if (b == 0.0) f.poison(f.y);
  if (a == 0.0) f.poison(f.x);
  cpu::waxpby(n, a, f.x.cpu.data(), b, f.y.cpu.data(), f.w.cpu.data());
  cuda::waxpby(f.gpu.stream(), n, a, f.x.gpu.data(), b, f.y.gpu.data(), f.w.gpu.data());
  check_close(f.w.gpu, f.w.cpu);
}

TEST_CASE("CUDA waxpby may write over one of its inputs", "[cuda][vector_ops]") {
  VectorFixture f(test::large_n);
  cpu::waxpby(f.n, 0.5, f.x.cpu.data(), 1.5, f.y.cpu.data(), f.x.cpu.data());
  cuda::waxpby(f.gpu.stream(), f.n, 0.5, f.x.gpu.data(), 1.5, f.y.gpu.data(), f.x.gpu.data());
  check_close(f.x.gpu, f.x.cpu);
}

TEST_CASE("CUDA pointwise multiply, fill and copy equal the CPU results exactly", "[cuda][vector_ops]") {
  const index_t n = GENERATE(as<index_t>{}, test::large_n, 3, 2, 1, 0);
  CAPTURE(n);
  VectorFixture f(n);
  cpu::pointwise_multiply(n, f.x.cpu.data(), f.y.cpu.data(), f.w.cpu.data());
  cuda::pointwise_multiply(f.gpu.stream(), n, f.x.gpu.data(), f.y.gpu.data(), f.w.gpu.data());
  CHECK(f.w.gpu.to_host() == f.w.cpu.to_host());  // one rounding per entry on both: bitwise equal

  cuda::fill(f.gpu.stream(), n, -2.5, f.w.gpu.data());
  CHECK(f.w.gpu.to_host() == std::vector<double>(static_cast<std::size_t>(n), -2.5));

  cuda::copy(f.gpu.stream(), n, f.x.gpu.data(), f.w.gpu.data());
  CHECK(f.w.gpu.to_host() == f.x.cpu.to_host());
}

TEST_CASE("CUDA accumulate_product matches the CPU reference, also in place", "[cuda][vector_ops]") {
  const index_t n = GENERATE(as<index_t>{}, test::large_n, 3000001, 3, 1, 0);
  CAPTURE(n);
  VectorFixture f(n);
  test::Mirrored z(f.cpu, f.gpu, test::random_vector(n, 23));
  cpu::accumulate_product(n, 0.75, f.x.cpu.data(), f.y.cpu.data(), z.cpu.data());
  cuda::accumulate_product(f.gpu.stream(), n, 0.75, f.x.gpu.data(), f.y.gpu.data(), z.gpu.data());
  check_close(z.gpu, z.cpu);
  cpu::accumulate_product(n, -1.5, f.x.cpu.data(), f.x.cpu.data(), f.x.cpu.data());
  cuda::accumulate_product(f.gpu.stream(), n, -1.5, f.x.gpu.data(), f.x.gpu.data(), f.x.gpu.data());
  check_close(f.x.gpu, f.x.cpu);
}

TEST_CASE("CUDA vector kernels on views not 16-byte aligned match the CPU reference", "[cuda][vector_ops]") {
  // Arrays of n + 1 entries used from entry 1: every pointer is 8 bytes past a 16-byte boundary.
  const index_t n = GENERATE(as<index_t>{}, test::large_n, 2, 1);
  const auto [a, b] = GENERATE(std::pair{0.75, -1.25}, std::pair{2.0, 0.0}, std::pair{0.0, -3.0});
  CAPTURE(n, a, b);
  VectorFixture f(n + 1);
  cpu::waxpby(n, a, f.x.cpu.data() + 1, b, f.y.cpu.data() + 1, f.w.cpu.data() + 1);
  cuda::waxpby(f.gpu.stream(), n, a, f.x.gpu.data() + 1, b, f.y.gpu.data() + 1, f.w.gpu.data() + 1);
  std::vector<double> got = f.w.gpu.to_host(), want = f.w.cpu.to_host();
  CHECK(std::isnan(got[0]));  // entry 0 is outside the view: still the NaN it started as
  got.erase(got.begin());
  want.erase(want.begin());
  CHECK(test::relative_difference(got, want) <= test::tolerance);

  // Mixed alignment: one input aligned, the other input and the output not.
  cpu::pointwise_multiply(n, f.x.cpu.data() + 1, f.y.cpu.data(), f.w.cpu.data() + 1);
  cuda::pointwise_multiply(f.gpu.stream(), n, f.x.gpu.data() + 1, f.y.gpu.data(), f.w.gpu.data() + 1);
  got = f.w.gpu.to_host();
  want = f.w.cpu.to_host();
  CHECK(std::vector<double>(got.begin() + 1, got.end()) == std::vector<double>(want.begin() + 1, want.end()));

  cuda::fill(f.gpu.stream(), n, 4.0, f.w.gpu.data() + 1);
  got = f.w.gpu.to_host();
  CHECK(std::isnan(got[0]));
  CHECK(std::vector<double>(got.begin() + 1, got.end()) == std::vector<double>(static_cast<std::size_t>(n), 4.0));
}

}  // namespace
}  // namespace miniapp
