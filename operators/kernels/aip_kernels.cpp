#include "operators/kernels/aip_kernels.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "operators/backend/cpu/aip_kernels.hpp"
#include "operators/backend/cpu/kernels.hpp"
#include "operators/backend/cuda/aip_kernels.hpp"
#include "operators/kernels/dispatch.hpp"

namespace miniapp {
namespace {

std::vector<float> to_float(const std::vector<double>& v) { return {v.begin(), v.end()}; }

// Stored entries and slices of `a` in sELL with this slice height (as to_sell pads them).
std::size_t sell_float_bytes(const CsrMatrix& a, index_t h) {
  std::size_t entries = 0, slices = 0;
  for (index_t first = 0; first < a.rows; first += h, ++slices) {
    index_t width = 0;
    for (index_t i = first; i < std::min(a.rows, first + h); ++i) width = std::max(width, a.row_length(i));
    entries += static_cast<std::size_t>(width) * static_cast<std::size_t>(h);
  }
  return (sizeof(index_t) + sizeof(float)) * entries + sizeof(index_t) * (slices + 1);
}

DeviceSellFloat checked_sell(const Executor& exec, const CsrMatrix& g, index_t slice_height) {
  if (g.rows != g.cols)
    throw Error("DeviceAipFactor: G is " + std::to_string(g.rows) + " × " + std::to_string(g.cols) +
                ", the approximate inverse factor must be square");
  return DeviceSellFloat(exec, to_sell(g, slice_height));
}

// The counts of an apply: the thesis' two products of the AIP (apply_bytes() between them); with ρ
// one DOT, summed in the second pass: on CUDA it reads r once more (z is in registers), on the CPU r
// and z are still in cache; with the update joined (advancing) its AXPY and r·r too.
void count_apply(const Executor& exec, const DeviceAipFactor& g, double seconds, bool with_rho, bool advancing) {
  const double n = g.rows(), flops = 2.0 * g.nnz();
  if (advancing) exec.counters().add(KernelKind::axpy, 48.0 * n, 4.0 * n, 0.0);
  exec.counters().add(KernelKind::spmv, g.apply_bytes() / 2, flops, seconds / 2);
  exec.counters().add(KernelKind::spmv, g.apply_bytes() / 2, flops, seconds / 2);
  if (with_rho)
    exec.counters().add(KernelKind::dot, exec.backend() == Backend::cuda ? 8.0 * n : 0.0,
                        (advancing ? 4.0 : 2.0) * n, 0.0);
}

}  // namespace

DeviceSellFloat::DeviceSellFloat(const Executor& exec, const SellMatrix& host)
    : rows_(host.rows), cols_(host.cols), slice_height_(host.slice_height), slice_count_(host.slice_count()),
      slice_ptr_(Array<index_t>::from_host(exec, host.slice_ptr)), col_(Array<index_t>::from_host(exec, host.col)),
      val_(Array<float>::from_host(exec, to_float(host.val))) {}

SellFloatView DeviceSellFloat::view() const {
  return {rows_, cols_, slice_height_, slice_count_, slice_ptr_.data(), col_.data(), val_.data()};
}

DeviceAipFactor::DeviceAipFactor(const Executor& exec, const CsrMatrix& g, index_t slice_height)
    : rows_(g.rows), nnz_(g.nnz()), g_(checked_sell(exec, g, slice_height)),
      gt_(exec, to_sell(transpose(g), slice_height)), work_(exec, g.rows) {}

AipFactorView DeviceAipFactor::view() const { return {g_.view(), gt_.view(), work_.data()}; }

double DeviceAipFactor::apply_bytes() const {
  const double matrices = 8.0 * (g_.stored_entries() + gt_.stored_entries()) +
                          4.0 * (g_.slice_count() + gt_.slice_count() + 2);
  return matrices + 32.0 * rows_;
}

std::size_t DeviceAipFactor::device_bytes(const CsrMatrix& pattern, index_t slice_height) {
  return sell_float_bytes(pattern, slice_height) + sell_float_bytes(transpose(pattern), slice_height) +
         sizeof(double) * static_cast<std::size_t>(pattern.rows);
}

void aip_apply(const Executor& exec, const DeviceAipFactor& g, const Vector& r, Vector& z, CgScalars* s) {
  constexpr const char* kernel = "aip_apply";
  detail::check_executor(exec, g.executor(), kernel, "the factor");
  detail::check_vector(exec, r, g.rows(), kernel, "r");
  detail::check_vector(exec, z, g.rows(), kernel, "z");
  detail::check_distinct(r, z, kernel, "r and z");
  cg::ScalarsView v{nullptr, nullptr, nullptr};
  if (s) {
    detail::check_executor(exec, s->executor(), kernel, "the scalar block");
    v = s->view();
  }
  const AipFactorView view = g.view();
  const double seconds = detail::run_timed(
      exec, [&] { cpu::aip_apply(view, r.data(), z.data(), v); },
      [&] { cuda::aip_apply(exec.stream(), view, r.data(), z.data(), v); });
  count_apply(exec, g, seconds, s != nullptr, false);
}

void aip_apply_advancing(const Executor& exec, const DeviceAipFactor& g, const Vector& p, const Vector& q, Vector& x,
                         Vector& r, Vector& z, CgScalars& s) {
  constexpr const char* kernel = "aip_apply_advancing";
  detail::check_executor(exec, g.executor(), kernel, "the factor");
  detail::check_executor(exec, s.executor(), kernel, "the scalar block");
  for (const auto& [vec, what] : {std::pair{&p, "p"}, {&q, "q"}, {&x, "x"}, {&r, "r"}, {&z, "z"}})
    detail::check_vector(exec, *vec, g.rows(), kernel, what);
  detail::check_distinct(x, r, kernel, "x and r");
  detail::check_distinct(x, z, kernel, "x and z");
  detail::check_distinct(r, z, kernel, "r and z");
  const AipFactorView view = g.view();
  const cg::ScalarsView v = s.view();
  const index_t n = g.rows();
  const double seconds = detail::run_timed(
      exec,
      [&] {  // the CPU gains nothing from joining them: the update, then the apply as apply_with_rho
        cpu::cg_update(n, p.data(), q.data(), x.data(), r.data(), v);
        cpu::aip_apply(view, r.data(), z.data(), v);
      },
      [&] { cuda::aip_apply_advancing(exec.stream(), view, p.data(), q.data(), x.data(), r.data(), z.data(), v); });
  count_apply(exec, g, seconds, true, true);
}

}  // namespace miniapp
