// CUDA gather/scatter (halo pack/unpack) against the CPU reference: empty, one entry, and a list
// longer than many blocks, on random distinct indices.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "operators/backend/cpu/kernels.hpp"
#include "operators/backend/cuda/kernels.hpp"
#include "tests/cuda/cuda_test_support.hpp"

namespace miniapp {
namespace {

TEST_CASE("CUDA gather and scatter match the CPU reference", "[cuda][gather]") {
  const index_t m = GENERATE(as<index_t>{}, test::large_n, 1, 0);
  const index_t n = 2 * test::large_n + 1;
  CAPTURE(m);
  const Executor cpu = Executor::cpu(), gpu = Executor::cuda();
  const auto idx = test::random_indices(n, m, 31);
  const auto d_idx = Array<index_t>::from_host(gpu, idx);
  test::Mirrored x(cpu, gpu, test::random_vector(n, 32));
  test::Mirrored packed(cpu, gpu, test::nan_vector(m));
  cpu::gather(m, idx.data(), x.cpu.data(), packed.cpu.data());
  cuda::gather(gpu.stream(), m, d_idx.data(), x.gpu.data(), packed.gpu.data());
  CHECK(packed.gpu.to_host() == packed.cpu.to_host());

  test::Mirrored y(cpu, gpu, test::nan_vector(n));
  cpu::scatter(m, idx.data(), packed.cpu.data(), y.cpu.data());
  cuda::scatter(gpu.stream(), m, d_idx.data(), packed.gpu.data(), y.gpu.data());
  const auto got = y.gpu.to_host(), want = y.cpu.to_host();
  for (index_t i = 0; i < n; ++i) {
    CAPTURE(i);
    CHECK((got[i] == want[i] || (std::isnan(got[i]) && std::isnan(want[i]))));
  }
}

}  // namespace
}  // namespace miniapp
