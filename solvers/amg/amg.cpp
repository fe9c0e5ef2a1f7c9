#include "solvers/amg/amg.hpp"

#include <cstdio>
#include <string>

#include "operators/backend/cuda/device.hpp"
#include "operators/kernels/vector_ops.hpp"
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

// The hierarchy's matrices in sELL on the host, before upload.
struct ConvertedHierarchy {
  struct Level {
    SellMatrix a, p, r;
  };
  std::vector<Level> levels;
  SellMatrix coarse_inverse;

  ConvertedHierarchy(const amg::HostHierarchy& h, index_t slice_height)
      : coarse_inverse(to_sell(h.coarse_inverse, slice_height)) {
    for (const amg::HostLevel& l : h.levels)
      levels.push_back({to_sell(l.a, slice_height), to_sell(l.prolongation, slice_height),
                        to_sell(l.restriction, slice_height)});
  }

  // Executor bytes once uploaded: slice pointers, a column index and a value per stored entry; per
  // level above the coarsest, D⁻¹ and D⁻¹/θ, the smoother's three vectors, residual and correction,
  // and the coarser level's b and x.
  std::size_t device_bytes(bool float_values) const {
    const std::size_t value = float_values ? sizeof(float) : sizeof(double);
    const auto matrix = [&](const SellMatrix& m) {
      return sizeof(index_t) * m.slice_ptr.size() + (sizeof(index_t) + value) * m.col.size();
    };
    std::size_t bytes = matrix(coarse_inverse);
    for (const Level& l : levels)
      bytes += matrix(l.a) + matrix(l.p) + matrix(l.r) +
               sizeof(double) * (7 * static_cast<std::size_t>(l.a.rows) + 2 * static_cast<std::size_t>(l.r.rows));
    return bytes;
  }
};

}  // namespace

Amg::Amg(const Executor& exec, const CsrMatrix& a, const amg::AmgOptions& options, index_t slice_height)
    : Amg(exec, amg::build_hierarchy(a, options), options, slice_height) {}

std::size_t Amg::device_bytes(const amg::HostHierarchy& h, index_t slice_height, bool float_storage) {
  return ConvertedHierarchy(h, slice_height).device_bytes(float_storage);
}

Amg::Amg(const Executor& exec, const amg::HostHierarchy& h, const amg::AmgOptions& options, index_t slice_height)
    : exec_(exec), operator_complexity_(amg::operator_complexity(h)), float_storage_(options.float_storage) {
  const ConvertedHierarchy sell(h, slice_height);
  check_fits(exec, sell.device_bytes(options.float_storage));
  const bool f = options.float_storage;
  for (std::size_t l = 0; l < h.levels.size(); ++l) {
    const auto& c = sell.levels[l];
    levels_.push_back(std::make_unique<Level>(
        exec, std::make_unique<amg::LevelMatrix>(exec, c.a, f), std::make_unique<amg::LevelMatrix>(exec, c.p, f),
        std::make_unique<amg::LevelMatrix>(exec, c.r, f), h.levels[l].diagonal, h.levels[l].lambda_max, c.r.rows,
        options));
    sizes_.push_back({h.levels[l].a.rows, h.levels[l].a.nnz()});
  }
  sizes_.push_back({h.coarsest.rows, h.coarsest.nnz()});
  coarse_solve_ = std::make_unique<amg::LevelMatrix>(exec, sell.coarse_inverse, f);
}

Amg::~Amg() = default;

void Amg::apply(const Vector& r, Vector& z) const {
  // Whoever watches the finest level's halo updates (the cost model) sees the coarser levels' too.
  for (const auto& domain : domains_) domain->observe(fine_->observer());
  cycle(0, r, z);
}

// x = V(b) from x = 0: smooth, restrict the residual, recurse, prolong the correction, smooth again.
void Amg::cycle(std::size_t l, const Vector& b, Vector& x) const {
  if (l == levels_.size()) return coarse_solve_->solve(b, x);
  const Level& level = *levels_[l];
  level.smoother.smooth(b, x, true);
  level.a->apply(x, level.correction);  // A x, in the correction's vector until it is needed
  waxpby(exec_, 1.0, b, -1.0, level.correction, level.residual);
  level.restriction->apply(level.residual, level.coarse_b);
  cycle(l + 1, level.coarse_b, level.coarse_x);
  level.prolongation->apply(level.coarse_x, level.correction);
  axpby(exec_, 1.0, level.correction, 1.0, x);
  level.smoother.smooth(b, x, false);
}

}  // namespace miniapp
