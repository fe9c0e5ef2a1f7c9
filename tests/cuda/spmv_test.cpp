// CUDA SpMV kernels (sELL, generalized sELL, CSR) against the CPU reference on random matrices
// larger than many blocks, with empty rows, a fully empty band of slices, non-square shapes and row
// counts that are not a multiple of the slice height.
#include <catch2/catch.hpp>

#include "operators/backend/cpu/aip_kernels.hpp"
#include "operators/backend/cpu/kernels.hpp"
#include "operators/kernels/aip_kernels.hpp"
#include "operators/backend/cuda/kernels.hpp"
#include "operators/sparse/sell_matrix.hpp"
#include "tests/cuda/cuda_test_support.hpp"

namespace miniapp {
namespace {

// rows x cols, up to 12 entries per row (some rows empty at random) and rows [256, 512) all empty.
CsrMatrix test_matrix(index_t rows, index_t cols, unsigned seed) {
  return test::with_empty_rows(test::random_csr(rows, cols, 12, seed), 256, 512);
}

// y = A x on both backends; y starts as NaN so a row the kernel skips shows up.
void check_sell_spmv(const CsrMatrix& csr, index_t slice_height) {
  const Executor cpu = Executor::cpu(), gpu = Executor::cuda();
  const SellMatrix sell = to_sell(csr, slice_height);
  const DeviceSell a_cpu(cpu, sell), a_gpu(gpu, sell);
  const test::Mirrored x(cpu, gpu, test::random_vector(csr.cols, 3));
  test::Mirrored y(cpu, gpu, test::nan_vector(csr.rows));
  cpu::spmv_sell(a_cpu.view(), x.cpu.data(), y.cpu.data());
  cuda::spmv_sell(gpu.stream(), a_gpu.view(), x.gpu.data(), y.gpu.data());
  const std::vector<double> got = y.gpu.to_host(), want = y.cpu.to_host();
  CHECK(test::relative_difference(got, want) <= test::tolerance);
  for (index_t r = 256; r < std::min<index_t>(512, csr.rows); ++r) REQUIRE(got[r] == 0.0);
}

TEST_CASE("CUDA sELL SpMV matches the CPU reference", "[cuda][spmv]") {
  const index_t slice_height = GENERATE(32, 128, 7, 1);
  const index_t cols = GENERATE(as<index_t>{}, test::large_n, test::large_n / 2 + 7);
  CAPTURE(slice_height, cols);
  check_sell_spmv(test_matrix(test::large_n, cols, 1), slice_height);
}

TEST_CASE("CUDA sELL SpMV handles matrices smaller than one slice", "[cuda][spmv]") {
  const index_t rows = GENERATE(0, 1, 5, 33);
  CAPTURE(rows);
  check_sell_spmv(test::random_csr(rows, std::max<index_t>(rows, 1), 4, 2), 32);
}

TEST_CASE("DeviceSell from CSR lays out on the device what to_sell does on the host", "[cuda][spmv]") {
  const index_t slice_height = GENERATE(32, 7, 1);
  // 6·10⁵ rows pass through the upload's buffers in several blocks; the small ones end inside a slice.
  const index_t rows = GENERATE(as<index_t>{}, 600011, 37, 0);
  CAPTURE(slice_height, rows);
  const CsrMatrix csr = rows > 512 ? test_matrix(rows, rows / 2 + 3, 4) : test::random_csr(rows, rows + 2, 4, 5);
  const SellMatrix want = to_sell(csr, slice_height);
  const Executor gpu = Executor::cuda();
  const DeviceSell got(gpu, csr, slice_height);
  REQUIRE(got.stored_entries() == static_cast<index_t>(want.col.size()));
  REQUIRE(got.slice_count() == want.slice_count());
  std::vector<index_t> col(want.col.size()), slice_ptr(want.slice_ptr.size());
  if (!col.empty()) gpu.copy_to_host(col.data(), got.view().col, sizeof(index_t) * col.size());
  gpu.copy_to_host(slice_ptr.data(), got.view().slice_ptr, sizeof(index_t) * slice_ptr.size());
  CHECK(slice_ptr == want.slice_ptr);
  CHECK(col == want.col);
  CHECK(got.values().to_host() == want.val);
}

TEST_CASE("CUDA generalized sELL SpMV matches the CPU reference for 1 to 4 vectors", "[cuda][spmv]") {
  const int k = GENERATE(1, 2, 3, 4);
  const index_t slice_height = GENERATE(32, 128);
  CAPTURE(k, slice_height);
  const Executor cpu = Executor::cpu(), gpu = Executor::cuda();
  const CsrMatrix csr = test_matrix(test::large_n, test::large_n, 4);
  const SellMatrix sell = to_sell(csr, slice_height);
  const DeviceSell a_cpu(cpu, sell), a_gpu(gpu, sell);
  std::vector<test::Mirrored> x, y;
  for (int j = 0; j < k; ++j) {
    x.emplace_back(cpu, gpu, test::random_vector(csr.cols, 10 + j));
    y.emplace_back(cpu, gpu, test::nan_vector(csr.rows));
  }
  std::vector<const double*> x_cpu, x_gpu;
  std::vector<double*> y_cpu, y_gpu;
  for (int j = 0; j < k; ++j) {
    x_cpu.push_back(x[j].cpu.data());
    x_gpu.push_back(x[j].gpu.data());
    y_cpu.push_back(y[j].cpu.data());
    y_gpu.push_back(y[j].gpu.data());
  }
  cpu::spmv_sell_multi(a_cpu.view(), k, x_cpu.data(), y_cpu.data());
  cuda::spmv_sell_multi(gpu.stream(), a_gpu.view(), k, x_gpu.data(), y_gpu.data());
  Vector single(gpu, csr.rows);
  for (int j = 0; j < k; ++j) {
    CAPTURE(j);
    const std::vector<double> got = y[j].gpu.to_host();
    CHECK(test::relative_difference(got, y[j].cpu.to_host()) <= test::tolerance);
    cuda::spmv_sell(gpu.stream(), a_gpu.view(), x[j].gpu.data(), single.data());
    CHECK(test::relative_difference(got, single.to_host()) <= test::tolerance);
  }
}

TEST_CASE("CUDA interleaved-block SpMV matches the CPU reference for 1 to 4 blocks", "[cuda][spmv]") {
  const int k = GENERATE(1, 2, 3, 4);
  const index_t slice_height = GENERATE(32, 7);
  CAPTURE(k, slice_height);
  const Executor cpu = Executor::cpu(), gpu = Executor::cuda();
  const index_t n = test::large_n / 2 + 3;  // each block's columns
  const CsrMatrix csr = test_matrix(test::large_n, k * n, 8);
  const SellMatrix sell = to_sell(csr, slice_height);
  const DeviceSell a_cpu(cpu, sell), a_gpu(gpu, sell);
  std::vector<test::Mirrored> x;
  std::vector<const double*> x_cpu, x_gpu;
  for (int d = 0; d < k; ++d) x.emplace_back(cpu, gpu, test::random_vector(n, 20 + d));
  for (int d = 0; d < k; ++d) x_cpu.push_back(x[d].cpu.data()), x_gpu.push_back(x[d].gpu.data());
  test::Mirrored y(cpu, gpu, test::nan_vector(csr.rows));
  cpu::spmv_sell_interleaved(a_cpu.view(), k, x_cpu.data(), y.cpu.data());
  cuda::spmv_sell_interleaved(gpu.stream(), a_gpu.view(), k, x_gpu.data(), y.gpu.data());
  const std::vector<double> got = y.gpu.to_host();
  CHECK(test::relative_difference(got, y.cpu.to_host()) <= test::tolerance);
  for (index_t r = 256; r < 512; ++r) REQUIRE(got[r] == 0.0);
  CHECK_THROWS_WITH(cuda::spmv_sell_interleaved(gpu.stream(), a_gpu.view(), 5, x_gpu.data(), y.gpu.data()),
                    Catch::Contains("5 vectors"));
}

TEST_CASE("CUDA fused SpMVs (AMG's residual, correction and Jacobi step) match the CPU reference on sELL and CSR", "[cuda][spmv]") {
  const index_t slice_height = GENERATE(32, 7);
  CAPTURE(slice_height);
  const Executor cpu = Executor::cpu(), gpu = Executor::cuda();
  const CsrMatrix csr = test_matrix(test::large_n, test::large_n, 5);
  const SellMatrix sell = to_sell(csr, slice_height);
  const DeviceSell a_cpu(cpu, sell), a_gpu(gpu, sell);
  const DeviceSellFloat f_cpu(cpu, sell), f_gpu(gpu, sell);
  const test::Mirrored x(cpu, gpu, test::random_vector(csr.cols, 21)), u(cpu, gpu, test::random_vector(csr.rows, 22)),
      w(cpu, gpu, test::random_vector(csr.rows, 23));
  test::Mirrored y(cpu, gpu, test::nan_vector(csr.rows)), step(cpu, gpu, test::nan_vector(csr.rows));
  // Each storage's pass on both backends, from NaN-filled outputs so that a skipped row shows up.
  const auto check = [&](const auto& on_cpu, const auto& on_gpu) {
    cpu::spmv_fused(on_cpu.view(), x.cpu.data(), AxpbyEpilogue{1.0, u.cpu.data(), -1.0, y.cpu.data()});
    cuda::spmv_fused(gpu.stream(), on_gpu.view(), x.gpu.data(), AxpbyEpilogue{1.0, u.gpu.data(), -1.0, y.gpu.data()});
    CHECK(test::relative_difference(y.gpu.to_host(), y.cpu.to_host()) <= test::tolerance);
    cpu::spmv_fused(on_cpu.view(), x.cpu.data(), JacobiEpilogue{x.cpu.data(), u.cpu.data(), w.cpu.data(), step.cpu.data()});
    cuda::spmv_fused(gpu.stream(), on_gpu.view(), x.gpu.data(),
                     JacobiEpilogue{x.gpu.data(), u.gpu.data(), w.gpu.data(), step.gpu.data()});
    CHECK(test::relative_difference(step.gpu.to_host(), step.cpu.to_host()) <= test::tolerance);
  };
  check(a_cpu, a_gpu);
  check(f_cpu, f_gpu);
  const DeviceCsr c_cpu(cpu, csr), c_gpu(gpu, csr);  // 4 lanes per row on CUDA
  check(c_cpu, c_gpu);
  const CsrMatrix longer = test::random_csr(test::large_n, test::large_n, 40, 24);  // 16 lanes per row
  const DeviceCsr l_cpu(cpu, longer), l_gpu(gpu, longer);
  check(l_cpu, l_gpu);
}

TEST_CASE("CUDA generalized SpMV rejects 0 or more than 4 vectors", "[cuda][spmv]") {
  const Executor gpu = Executor::cuda();
  const DeviceSell a(gpu, to_sell(test::random_csr(10, 10, 3, 5), 32));
  Vector x(gpu, 10), y(gpu, 10);
  const std::vector<const double*> xs(5, x.data());
  const std::vector<double*> ys(5, y.data());
  CHECK_THROWS_AS(cuda::spmv_sell_multi(gpu.stream(), a.view(), 0, xs.data(), ys.data()), Error);
  CHECK_THROWS_WITH(cuda::spmv_sell_multi(gpu.stream(), a.view(), 5, xs.data(), ys.data()),
                    Catch::Contains("5 vectors"));
}

TEST_CASE("CUDA CSR SpMV matches the CPU reference", "[cuda][spmv]") {
  const index_t rows = GENERATE(as<index_t>{}, test::large_n, 1, 0);
  CAPTURE(rows);
  const Executor cpu = Executor::cpu(), gpu = Executor::cuda();
  const CsrMatrix csr = test_matrix(rows, std::max<index_t>(rows, 1), 6);
  const DeviceCsr a_cpu(cpu, csr), a_gpu(gpu, csr);
  const test::Mirrored x(cpu, gpu, test::random_vector(csr.cols, 7));
  test::Mirrored y(cpu, gpu, test::nan_vector(rows));
  cpu::spmv_csr(a_cpu.view(), x.cpu.data(), y.cpu.data());
  cuda::spmv_csr(gpu.stream(), a_gpu.view(), x.gpu.data(), y.gpu.data());
  CHECK(test::relative_difference(y.gpu.to_host(), y.cpu.to_host()) <= test::tolerance);
}

TEST_CASE("CUDA CSR SpMV a group of lanes per row matches the CPU reference on long and short rows", "[cuda][spmv]") {
  // Dense rows as the coarse inverse's (longer than a warp, not a multiple of it), random rows of up
  // to 12, 30 and 60 entries with empty ones, and no rows: each group size, rows longer than their
  // group, and rows of the last warp past the end.
  const Executor cpu = Executor::cpu(), gpu = Executor::cuda();
  std::vector<Triplet> dense;
  for (index_t i = 0; i < 397; ++i)
    for (index_t j = 0; j < 397; ++j) dense.push_back({i, j, 1.0 / (1.0 + i + j)});
  const std::vector<std::pair<CsrMatrix, int>> cases = {
      {csr_from_triplets(397, 397, dense), 32},
      {test_matrix(test::large_n, test::large_n, 9), 4},
      {test::random_csr(test::large_n + 3, test::large_n, 30, 10), 8},
      {test::random_csr(test::large_n + 5, test::large_n, 60, 11), 16},
      {csr_from_triplets(0, 5, {}), 4}};
  for (const auto& [csr, lanes] : cases) {
    CAPTURE(csr.rows, lanes);
    CHECK(cuda::csr_lanes(csr.rows, csr.nnz()) == lanes);
    const DeviceCsr a_cpu(cpu, csr), a_gpu(gpu, csr);
    const test::Mirrored x(cpu, gpu, test::random_vector(csr.cols, 8));
    test::Mirrored y(cpu, gpu, test::nan_vector(csr.rows));
    cpu::spmv_csr(a_cpu.view(), x.cpu.data(), y.cpu.data());
    cuda::spmv_csr_warp_rows(gpu.stream(), a_gpu.view(), x.gpu.data(), y.gpu.data());
    CHECK(test::relative_difference(y.gpu.to_host(), y.cpu.to_host()) <= test::tolerance);
  }
}

TEST_CASE("CSR lanes per row: the power of two from 4 to 32 that covers half the mean row", "[spmv]") {
  CHECK(cuda::csr_lanes(100, 800) == 4);
  CHECK(cuda::csr_lanes(100, 801) == 8);
  CHECK(cuda::csr_lanes(15997, 303107) == 16);
  CHECK(cuda::csr_lanes(100, 3201) == 32);
  CHECK(cuda::csr_lanes(188, 188 * 188) == 32);
  CHECK(cuda::csr_lanes(0, 0) == 4);
}

}  // namespace
}  // namespace miniapp
