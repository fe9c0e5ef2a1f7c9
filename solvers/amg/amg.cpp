#include "solvers/amg/amg.hpp"

#include <cstdio>
#include <string>

#include "core/error.hpp"
#include "operators/backend/cuda/device.hpp"
#include "operators/kernels/aip_kernels.hpp"
#include "solvers/amg/amg_level.hpp"

namespace miniapp {

namespace {

std::string gigabytes(std::size_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f GB", static_cast<double>(bytes) / 1e9);
  return text;
}

// Refuses, before anything is uploaded, a hierarchy larger than the device's free memory.
void check_fits(const Executor& exec, std::size_t bytes) {
  if (exec.backend() != Backend::cuda) return;
  const cuda::MemoryInfo info = cuda::memory_info(exec.device());
  if (bytes > info.free_bytes)
    throw Error("AMG: the hierarchy needs " + gigabytes(bytes) + " of device memory, " + gigabytes(info.free_bytes) +
                " free on " + exec.description() +
                ": use numerics.preconditioner = \"aip1\", a coarser mesh or a device with more memory");
}

// A matrix laid out in executor memory, kept with double values or narrowed there to float (the
// narrowing timed as the set-up's conversion).
std::unique_ptr<amg::LevelMatrix> stored(DeviceSell&& laid_out, bool float_values, amg::SetupProfile& profile) {
  if (!float_values) return std::make_unique<amg::LevelMatrix>(std::move(laid_out));
  amg::StageClock clock(profile, amg::SetupStage::conversion);
  return std::make_unique<amg::LevelMatrix>(DeviceSellFloat(std::move(laid_out)));
}

// A matrix laid out as sELL in executor memory: from the set-up's device copy where it left one, else
// from the host matrix's CSR rows (no host sELL copy).
std::unique_ptr<amg::LevelMatrix> in_sell(const Executor& exec, const CsrMatrix& host, const DeviceCsr* on_device,
                                           index_t slice_height, bool float_values, amg::SetupProfile& profile) {
  DeviceSell laid_out = [&] {
    amg::StageClock clock(profile, amg::SetupStage::upload);
    return on_device ? DeviceSell(*on_device, slice_height) : DeviceSell(exec, host, slice_height);
  }();
  return stored(std::move(laid_out), float_values, profile);
}

// A copy in executor memory of a CSR matrix there.
DeviceCsr copied(const DeviceCsr& m) {
  const Executor& exec = m.executor();
  const CsrView v = m.view();
  Array<index_t> row_ptr(exec, m.rows() + 1), col(exec, m.nnz());
  Vector val(exec, m.nnz());
  exec.copy(row_ptr.data(), v.row_ptr, sizeof(index_t) * static_cast<std::size_t>(m.rows() + 1));
  exec.copy(col.data(), v.col, sizeof(index_t) * static_cast<std::size_t>(m.nnz()));
  exec.copy(val.data(), v.val, sizeof(double) * static_cast<std::size_t>(m.nnz()));
  return DeviceCsr(m.rows(), m.cols(), std::move(row_ptr), std::move(col), std::move(val));
}

// A matrix of the hierarchy (A, P, R, the coarse inverse) in executor memory: kept in CSR where
// amg::kept_in_csr says so (copied from the set-up's device copy where it left one), else in sELL. CSR
// holds double values: with float storage they are rounded to float, the values the matrix would have
// in float sELL, so that R stays Pᵀ and A symmetric value for value and the cycle symmetric.
std::unique_ptr<amg::LevelMatrix> level_matrix(const Executor& exec, const CsrMatrix& host, const DeviceCsr* on_device,
                                                index_t slice_height, bool float_values, amg::SetupProfile& profile) {
  const index_t rows = on_device ? on_device->rows() : host.rows, nnz = on_device ? on_device->nnz() : host.nnz();
  if (!amg::kept_in_csr(rows, nnz)) return in_sell(exec, host, on_device, slice_height, float_values, profile);
  amg::StageClock clock(profile, amg::SetupStage::upload);
  DeviceCsr csr = on_device ? copied(*on_device) : DeviceCsr(exec, host);
  if (float_values) round_to_float(exec, csr.values());
  return std::make_unique<amg::LevelMatrix>(std::move(csr));
}

std::unique_ptr<amg::LevelMatrix> level_matrix(const Executor& exec, const amg::SetupMatrix& m, index_t slice_height,
                                                bool float_values, amg::SetupProfile& profile) {
  return level_matrix(exec, m.host, m.device ? &*m.device : nullptr, slice_height, float_values, profile);
}

// The finest level's A from the solver's own matrix: used in place with double values; otherwise its
// values narrowed into a float copy that reads the solver's slice offsets and columns.
std::unique_ptr<amg::LevelMatrix> finest(const Executor& exec, const DeviceSell& fine, bool float_values,
                                          amg::SetupProfile& profile) {
  if (!float_values) return std::make_unique<amg::LevelMatrix>(exec, fine);
  amg::StageClock clock(profile, amg::SetupStage::conversion);
  return std::make_unique<amg::LevelMatrix>(DeviceSellFloat::sharing_structure(fine));
}

}  // namespace

Amg::Amg(const Executor& exec, const CsrMatrix& a, const amg::AmgOptions& options, index_t slice_height,
         const DeviceSell* fine)
    : Amg(exec, amg::build_hierarchy(a, options, &exec), options, slice_height, fine) {}

// Per level above the coarsest also the smoother's vectors, residual and correction, and the coarser
// level's b and x.
std::size_t Amg::device_bytes(const amg::HostHierarchy& h, index_t slice_height, const amg::AmgOptions& options,
                              bool shared_fine) {
  const bool float_storage = options.float_storage;
  const auto level_vectors = static_cast<std::size_t>(amg::ChebyshevSmoother::vectors(options.smoother_degree) + 2);
  const auto matrix_bytes = [&](const amg::SetupMatrix& m) {
    return m.device ? amg::level_device_bytes(*m.device, slice_height, float_storage)
                    : amg::level_device_bytes(m.host, slice_height, float_storage);
  };
  std::size_t bytes = amg::level_device_bytes(h.coarse_inverse, slice_height, float_storage);
  for (const amg::HostLevel& l : h.levels) {
    // The solver's matrix in place of the finest A: none of it, or a float copy of its values.
    const bool shared = shared_fine && &l == &h.levels.front();
    bytes += shared ? (float_storage ? sizeof(float) * sell_stored_entries(l.a.host, slice_height) : 0)
                    : matrix_bytes(l.a);
    bytes += matrix_bytes(l.prolongation) + matrix_bytes(l.restriction) +
             sizeof(double) * (level_vectors * static_cast<std::size_t>(l.rows()) + 2 * static_cast<std::size_t>(l.coarse_rows()));
  }
  return bytes;
}

// Level by level, so that one level's sELL copies live on the host at a time.
Amg::Amg(const Executor& exec, const amg::HostHierarchy& h, const amg::AmgOptions& options, index_t slice_height,
         const DeviceSell* fine)
    : exec_(exec), operator_complexity_(amg::operator_complexity(h)), float_storage_(options.float_storage),
      profile_(h.profile) {
  const bool float_values = options.float_storage, share = fine && !h.levels.empty();
  if (share && (fine->rows() != h.levels.front().rows() || fine->nnz() != h.levels.front().nnz()))
    throw Error("AMG: the shared finest matrix is not the hierarchy's (" + std::to_string(fine->rows()) + " rows)");
  check_fits(exec, device_bytes(h, slice_height, options, share));
  for (const amg::HostLevel& l : h.levels) {
    std::unique_ptr<amg::LevelMatrix> a =
        share && levels_.empty() ? finest(exec, *fine, float_values, profile_)
                                 : level_matrix(exec, l.a, slice_height, float_values, profile_);
    std::unique_ptr<amg::LevelMatrix> p = level_matrix(exec, l.prolongation, slice_height, float_values, profile_);
    std::unique_ptr<amg::LevelMatrix> r = level_matrix(exec, l.restriction, slice_height, float_values, profile_);
    amg::StageClock clock(profile_, amg::SetupStage::upload);
    levels_.push_back(std::make_unique<Level>(exec, std::move(a), std::move(p), std::move(r), l.diagonal,
                                              l.lambda_max, l.coarse_rows(), options));
    sizes_.push_back({l.rows(), l.nnz()});
  }
  sizes_.push_back({h.coarsest.rows, h.coarsest.nnz()});
  coarse_solve_ = level_matrix(exec, h.coarse_inverse, nullptr, slice_height, float_values, profile_);
  amg::StageClock clock(profile_, amg::SetupStage::upload);
  exec.synchronize();
}

Amg::~Amg() = default;

void Amg::apply(const Vector& r, Vector& z) const {
  // Whoever watches the finest level's halo updates (the cost model) sees the coarser levels' too.
  for (const auto& domain : domains_) domain->observe(fine_->observer());
  cycle(0, r, z);
}

// The cycle on level l as its kernel calls: smooth, restrict the residual, recurse, prolong the correction,
// smooth again; the residual, the correction's addition and (degree 1) the post-smoothing formed in
// their SpMVs' passes.
template <class Step, class Coarser>
void Amg::level_steps(std::size_t l, const Vector& b, Vector& x, Step&& step, Coarser&& coarser) const {
  const Level& level = *levels_[l];
  const index_t n = level.residual.size(), coarse_n = level.coarse_b.size();
  level.smoother.steps(b, x, true, step);
  step("spmv_axpby", "r = b - A x", n, [&] { level.a->apply_axpby(x, 1.0, b, -1.0, level.residual); });
  step("spmv", "b_c = R r", coarse_n, [&] { level.restriction->apply(level.residual, level.coarse_b); });
  coarser();
  // The corrected iterate in e's vector, smoothed from there back into x.
  step("spmv_axpby", "e = x + P x_c", n,
       [&] { level.prolongation->apply_axpby(level.coarse_x, 1.0, x, 1.0, level.correction); });
  level.smoother.steps_from(b, level.correction, x, step);
}

// x = V(b) from x = 0.
void Amg::cycle(std::size_t l, const Vector& b, Vector& x) const {
  if (l == levels_.size()) return coarse_solve_->solve(b, x);
  const Level& level = *levels_[l];
  level_steps(l, b, x, amg::RunNow{}, [&] { cycle(l + 1, level.coarse_b, level.coarse_x); });
}

Amg::LevelCalls Amg::level_calls(std::size_t l, const Vector& r, Vector& z) const {
  if (l > levels_.size())
    throw Error("AMG: level " + std::to_string(l) + " of a hierarchy of " + std::to_string(levels_.size() + 1) +
                " levels");
  const Vector& b = l == 0 ? r : levels_[l - 1]->coarse_b;
  Vector& x = l == 0 ? z : levels_[l - 1]->coarse_x;
  LevelCalls level;
  const auto keep = [&level](const char* kernel, const char* operation, index_t rows, const auto& call) {
    level.calls.push_back({kernel, operation, rows, call});
  };
  if (l == levels_.size()) {
    keep("spmv", "x = A+ b (coarse solve)", x.size(), [this, &b, &x] { coarse_solve_->solve(b, x); });
    level.coarser_at = level.calls.size();
  } else {
    level_steps(l, b, x, keep, [&level] { level.coarser_at = level.calls.size(); });
  }
  return level;
}

}  // namespace miniapp
