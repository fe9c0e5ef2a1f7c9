#include "operators/kernels/aip_kernels.hpp"

#include <algorithm>
#include <string>
#include <tuple>
#include <span>
#include <vector>

#include "operators/backend/cpu/aip_kernels.hpp"
#include "operators/backend/cpu/kernels.hpp"
#include "operators/backend/cuda/aip_kernels.hpp"
#include "operators/kernels/dispatch.hpp"
#include "operators/kernels/matrix_bytes.hpp"

namespace miniapp {
namespace {

std::vector<float> to_float(std::span<const double> v) { return {v.begin(), v.end()}; }

const CsrMatrix& checked_square(const CsrMatrix& g) {
  if (g.rows != g.cols)
    throw Error("DeviceAipFactor: G is " + std::to_string(g.rows) + " × " + std::to_string(g.cols) +
                ", the approximate inverse factor must be square");
  return g;
}

// Entries the rows of Gᵀ G gather before merging: Σ_k |row k of G|² (row k of G adds its entries to
// each of the rows its columns name).
double product_gathers(const CsrMatrix& g) {
  double gathers = 0.0;
  for (index_t k = 0; k < g.rows; ++k) gathers += static_cast<double>(g.row_length(k)) * g.row_length(k);
  return gathers;
}

// Bytes of two passes that the product does not move: G and Gᵀ, y written and read.
double two_pass_bytes(const CsrMatrix& g, const CsrMatrix& gt, index_t h) {
  return static_cast<double>(sell_device_bytes(g, h, true) + sell_device_bytes(gt, h, true)) + 16.0 * g.rows;
}

// The counts of an apply: one SpMV per pass (apply_bytes() and apply_flops() shared between them); with
// ρ one DOT, summed in the last pass: on CUDA the second of two passes reads r once more (z is in
// registers), the product's pass and the CPU's find r where they left it; with the update joined
// (advancing) its AXPY and r·r too, and the product's pass gathers the update's r − α q rather than
// reading r itself. The calls' time is shared between the kinds in proportion to their bytes, so
// that each kind's bytes over its time is the fused kernels' own bandwidth (a kind's bytes counted
// without their time would report an impossible bandwidth).
void count_apply(const Executor& exec, const DeviceAipFactor& g, double seconds, bool with_rho, bool advancing) {
  const double n = g.rows();
  const bool product = g.form() == AipForm::product;
  const int passes = product ? 1 : 2;
  const double axpy_bytes = advancing ? 48.0 * n : 0.0;
  const double spmv_bytes = g.apply_bytes() - (advancing && product ? 8.0 * n : 0.0);
  const double dot_bytes = with_rho && exec.backend() == Backend::cuda && !product ? 8.0 * n : 0.0;
  const double per_byte = seconds / (axpy_bytes + spmv_bytes + dot_bytes);
  if (advancing) exec.counters().add(KernelKind::axpy, axpy_bytes, 4.0 * n, axpy_bytes * per_byte);
  for (int pass = 0; pass < passes; ++pass)
    exec.counters().add(KernelKind::spmv, spmv_bytes / passes, g.apply_flops() / passes,
                        spmv_bytes / passes * per_byte);
  if (with_rho) exec.counters().add(KernelKind::dot, dot_bytes, (advancing ? 4.0 : 2.0) * n, dot_bytes * per_byte);
}

}  // namespace

DeviceSellFloat::DeviceSellFloat(const Executor& exec, const SellMatrix& host)
    : rows_(host.rows), cols_(host.cols), slice_height_(host.slice_height), slice_count_(host.slice_count()),
      nnz_(host.nnz),
      slice_ptr_(Array<index_t>::from_host(exec, host.slice_ptr)), col_(Array<index_t>::from_host(exec, host.col)),
      val_(Array<float>::from_host(exec, to_float(host.val))) {}

DeviceSellFloat::DeviceSellFloat(const DeviceSell& values_of, DeviceSell::Structure structure)
    : rows_(values_of.rows()), cols_(values_of.cols()), slice_height_(values_of.view().slice_height),
      slice_count_(values_of.slice_count()), nnz_(values_of.nnz()), slice_ptr_(std::move(structure.slice_ptr)),
      col_(std::move(structure.col)), val_(values_of.executor(), values_of.stored_entries()) {
  const Executor& exec = values_of.executor();
  const double* values = values_of.values().data();
  if (exec.backend() == Backend::cuda) cuda::narrow_to_float(exec.stream(), val_.size(), values, val_.data());
  else cpu::narrow_to_float(val_.size(), values, val_.data());
}

// a's structure is moved out before the values are read; a keeps its values until the caller drops it.
DeviceSellFloat::DeviceSellFloat(DeviceSell&& a) : DeviceSellFloat(a, std::move(a).take_structure()) {}

DeviceSellFloat DeviceSellFloat::sharing_structure(const DeviceSell& a) { return {a, a.structure_window()}; }

SellFloatView DeviceSellFloat::view() const {
  return {rows_, cols_, slice_height_, slice_count_, slice_ptr_.data(), col_.data(), val_.data()};
}

// Gᵀ G where the form asks for the product or, by default, where it moves fewer bytes than two passes.
AipHostMatrices aip_host_matrices(CsrMatrix g, index_t h, AipForm form) {
  constexpr double gather_limit = 4.0;  // times G's entries
  checked_square(g);
  CsrMatrix gt = transpose(g);
  AipHostMatrices m{std::move(g), std::move(gt), std::nullopt};
  if (form == AipForm::two_pass) return m;
  if (form == AipForm::fewer_bytes && product_gathers(m.g) > gather_limit * m.g.nnz()) return m;
  CsrMatrix product = multiply(m.gt, m.g);
  if (form == AipForm::product || static_cast<double>(sell_device_bytes(product, h, true)) <= two_pass_bytes(m.g, m.gt, h))
    m.product = std::move(product);
  return m;
}

DeviceAipFactor::DeviceAipFactor(const Executor& exec, const CsrMatrix& g, index_t slice_height, AipForm form)
    : DeviceAipFactor(exec, aip_host_matrices(g, slice_height, form), slice_height) {}

DeviceAipFactor::DeviceAipFactor(const Executor& exec, const AipHostMatrices& m, index_t slice_height)
    : rows_(m.g.rows), flops_(2.0 * (m.product ? m.product->nnz() : 2.0 * m.g.nnz())),
      first_(exec, to_sell(m.product ? *m.product : m.g, slice_height)), work_(exec, m.product ? 0 : m.g.rows) {
  if (!m.product) second_.emplace(exec, to_sell(m.gt, slice_height));
}

AipFactorView DeviceAipFactor::view() const {
  if (!second_) return {1, first_.view(), {}, nullptr};
  return {2, first_.view(), second_->view(), work_.data()};
}

double DeviceAipFactor::apply_bytes() const {
  const double one_pass = detail::matrix_bytes(first_) + 16.0 * rows_;  // r read, z written
  return second_ ? one_pass + detail::matrix_bytes(*second_) + 16.0 * rows_ : one_pass;
}

std::size_t DeviceAipFactor::device_bytes(const CsrMatrix& pattern, index_t slice_height) {
  return device_bytes(aip_host_matrices(pattern, slice_height, AipForm::fewer_bytes), slice_height);
}

std::size_t DeviceAipFactor::device_bytes(const AipHostMatrices& m, index_t slice_height) {
  if (m.product) return sell_device_bytes(*m.product, slice_height, true);
  return sell_device_bytes(m.g, slice_height, true) + sell_device_bytes(m.gt, slice_height, true) +
         sizeof(double) * static_cast<std::size_t>(m.g.rows);
}

void round_to_float(const Executor& exec, Vector& v) {
  detail::check_executor(exec, v.executor(), "round_to_float", "v");
  if (exec.backend() == Backend::cuda) cuda::round_to_float(exec.stream(), v.size(), v.data());
  else cpu::round_to_float(v.size(), v.data());
}

void spmv(const Executor& exec, const DeviceSellFloat& a, const Vector& x, Vector& y) {
  constexpr const char* kernel = "spmv (float matrix)";
  detail::check_executor(exec, a.executor(), kernel, "the matrix");
  detail::check_vector(exec, x, a.cols(), kernel, "x");
  detail::check_vector(exec, y, a.rows(), kernel, "y");
  detail::check_distinct(x, y, kernel, "x and y");
  const AipFactorView view{1, a.view(), {}, nullptr};
  const cg::ScalarsView none{nullptr, nullptr, nullptr};
  const double seconds = detail::run_timed(
      exec, [&] { cpu::aip_apply(view, x.data(), y.data(), none); },
      [&] { cuda::aip_apply(exec.stream(), view, x.data(), y.data(), none); });
  exec.counters().add(KernelKind::spmv, detail::matrix_bytes(a) + 8.0 * a.cols() + 8.0 * a.rows(),
                      2.0 * a.nnz(), seconds);
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
                         const Vector& r, Vector& r_new, Vector& z, CgScalars& s) {
  constexpr const char* kernel = "aip_apply_advancing";
  detail::check_executor(exec, g.executor(), kernel, "the factor");
  detail::check_executor(exec, s.executor(), kernel, "the scalar block");
  for (const auto& [vec, what] :
       {std::pair{&p, "p"}, {&q, "q"}, {&x, "x"}, {&r, "r"}, {&r_new, "r_new"}, {&z, "z"}})
    detail::check_vector(exec, *vec, g.rows(), kernel, what);
  using Pair = std::tuple<const Vector*, const Vector*, const char*>;
  for (const auto& [u, v, what] : {Pair{&x, &r, "x and r"}, Pair{&x, &r_new, "x and r_new"}, Pair{&x, &z, "x and z"},
                                   Pair{&r, &z, "r and z"}, Pair{&r_new, &z, "r_new and z"}})
    detail::check_distinct(*u, *v, kernel, what);
  if (g.form() == AipForm::product) detail::check_distinct(r, r_new, kernel, "r and r_new (the product gathers r)");
  const AipFactorView view = g.view();
  const cg::ScalarsView v = s.view();
  const index_t n = g.rows();
  const double seconds = detail::run_timed(
      exec,
      [&] {  // the CPU gains nothing from joining them: the update, then the apply as apply_with_rho
        cpu::cg_update(n, p.data(), q.data(), x.data(), r.data(), r_new.data(), v);
        cpu::aip_apply(view, r_new.data(), z.data(), v);
      },
      [&] {
        cuda::aip_apply_advancing(exec.stream(), view, p.data(), q.data(), x.data(), r.data(), r_new.data(), z.data(),
                                  v);
      });
  count_apply(exec, g, seconds, true, true);
}

}  // namespace miniapp
