#include "operators/kernels/spmv.hpp"

#include <array>
#include <vector>

#include "operators/backend/cpu/kernels.hpp"
#include "operators/backend/cuda/kernels.hpp"
#include "operators/kernels/dispatch.hpp"
#include "operators/kernels/matrix_bytes.hpp"

namespace miniapp {
namespace {

// Matrix read once (matrix_bytes: padding included), then every x and y once: 8 · (cols + rows) per
// vector.
double sell_bytes(const DeviceSell& a, int vectors) {
  return detail::matrix_bytes(a) + 8.0 * vectors * (double(a.cols()) + a.rows());
}

// x needs `cols` entries, y `rows`, both on `exec`, and y must not overwrite x while it is read.
void check_operands(const Executor& exec, index_t rows, index_t cols, const Vector& x, const Vector& y,
                    const char* kernel) {
  detail::check_vector(exec, x, cols, kernel, "x");
  detail::check_vector(exec, y, rows, kernel, "y");
  detail::check_distinct(x, y, kernel, "x and y");
}

}  // namespace

void spmv(const Executor& exec, const DeviceSell& a, const Vector& x, Vector& y) {
  constexpr const char* kernel = "spmv (sELL)";
  detail::check_executor(exec, a.executor(), kernel, "the matrix");
  check_operands(exec, a.rows(), a.cols(), x, y, kernel);
  const SellView view = a.view();
  const double seconds = detail::run_timed(
      exec, [&] { cpu::spmv_sell(view, x.data(), y.data()); },
      [&] { cuda::spmv_sell(exec.stream(), view, x.data(), y.data()); });
  exec.counters().add(KernelKind::spmv, sell_bytes(a, 1), 2.0 * a.nnz(), seconds);
}

// Bytes: 12 per non-zero, the row pointers, x and y once.
void spmv(const Executor& exec, const DeviceCsr& a, const Vector& x, Vector& y) {
  constexpr const char* kernel = "spmv (CSR)";
  detail::check_executor(exec, a.executor(), kernel, "the matrix");
  check_operands(exec, a.rows(), a.cols(), x, y, kernel);
  const CsrView view = a.view();
  const bool long_rows = a.nnz() >= csr_warp_row_entries * static_cast<double>(a.rows());
  const double seconds = detail::run_timed(
      exec, [&] { cpu::spmv_csr(view, x.data(), y.data()); },
      [&] {
        if (long_rows) cuda::spmv_csr_warp_rows(exec.stream(), view, x.data(), y.data());
        else cuda::spmv_csr(exec.stream(), view, x.data(), y.data());
      });
  const double bytes = detail::matrix_bytes(a) + 8.0 * (double(a.cols()) + a.rows());
  exec.counters().add_spmv(SpmvForm::csr, bytes, 2.0 * a.nnz(), seconds);
}

void spmv_interleaved(const Executor& exec, const DeviceSell& a, std::span<const Vector* const> x, Vector& y) {
  constexpr const char* kernel = "spmv_interleaved";
  detail::check_executor(exec, a.executor(), kernel, "the matrix");
  const auto k = static_cast<int>(x.size());
  if (k < 1 || k > max_spmv_vectors || a.cols() % k != 0)
    throw Error(std::string(kernel) + ": " + std::to_string(k) + " input vectors for a matrix of " +
                std::to_string(a.cols()) + " columns; expected 1 to " + std::to_string(max_spmv_vectors) +
                " vectors that divide the columns");
  std::array<const double*, max_spmv_vectors> xs{};  // twice a step: no heap allocation
  for (int d = 0; d < k; ++d) {
    if (!x[d]) throw Error(std::string(kernel) + ": input vector " + std::to_string(d) + " is a null pointer");
    check_operands(exec, a.rows(), a.cols() / k, *x[d], y, kernel);
    xs[d] = x[d]->data();
  }
  const SellView view = a.view();
  const double seconds = detail::run_timed(
      exec, [&] { cpu::spmv_sell_interleaved(view, k, xs.data(), y.data()); },
      [&] { cuda::spmv_sell_interleaved(exec.stream(), view, k, xs.data(), y.data()); });
  exec.counters().add_spmv(SpmvForm::sell_interleaved, sell_bytes(a, 1), 2.0 * a.nnz(), seconds);
}

void spmv_multi(const Executor& exec, const DeviceSell& a, std::span<const Vector* const> x,
                std::span<Vector* const> y) {
  constexpr const char* kernel = "spmv_multi";
  detail::check_executor(exec, a.executor(), kernel, "the matrix");
  if (x.size() != y.size() || x.empty() || x.size() > static_cast<std::size_t>(max_spmv_vectors))
    throw Error(std::string(kernel) + ": " + std::to_string(x.size()) + " inputs and " + std::to_string(y.size()) +
                " outputs; expected the same number, 1 to " + std::to_string(max_spmv_vectors));
  const int k = static_cast<int>(x.size());
  std::vector<const double*> xs(k);
  std::vector<double*> ys(k);
  for (int i = 0; i < k; ++i)
    if (!x[i] || !y[i]) throw Error(std::string(kernel) + ": vector pair " + std::to_string(i) + " has a null pointer");
  for (int i = 0; i < k; ++i) {
    for (int j = 0; j < k; ++j) check_operands(exec, a.rows(), a.cols(), *x[j], *y[i], kernel);
    xs[i] = x[i]->data();
    ys[i] = y[i]->data();
  }
  const SellView view = a.view();
  const double seconds = detail::run_timed(
      exec, [&] { cpu::spmv_sell_multi(view, k, xs.data(), ys.data()); },
      [&] { cuda::spmv_sell_multi(exec.stream(), view, k, xs.data(), ys.data()); });
  exec.counters().add_spmv(k == 1 ? SpmvForm::sell : SpmvForm::sell_vectors, sell_bytes(a, k), 2.0 * k * a.nnz(),
                           seconds);
}

}  // namespace miniapp
