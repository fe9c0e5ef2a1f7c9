#include "solvers/amg/amg.hpp"

#include <cstdio>
#include <optional>
#include <string>

#include "operators/backend/cuda/device.hpp"
#include "operators/kernels/vector_ops.hpp"

namespace miniapp {

// One level above the coarsest, on the executor. b and x are the coarser level's right-hand side and
// solution (level l + 1's), owned here; the finest level's are the apply's r and z.
struct Amg::Level {
  Level(const Executor& exec, const amg::HostLevel& host, const SellMatrix& host_a, const SellMatrix& host_p,
        const SellMatrix& host_r, const amg::AmgOptions& options)
      : a(exec, host_a, options.float_storage), prolongation(exec, host_p, options.float_storage),
        restriction(exec, host_r, options.float_storage),
        smoother(exec, a, host.diagonal, host.lambda_max, options.smoother_ratio, options.smoother_degree),
        residual(exec, host_a.rows), correction(exec, host_a.rows), coarse_b(exec, host_r.rows),
        coarse_x(exec, host_r.rows) {}
  amg::LevelMatrix a, prolongation, restriction;
  amg::ChebyshevSmoother smoother;
  mutable Vector residual, correction, coarse_b, coarse_x;
};

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
    : exec_(exec), operator_complexity_(amg::operator_complexity(h)), float_storage_(options.float_storage),
      profile_(h.profile) {
  std::optional<amg::StageClock> clock(std::in_place, profile_, amg::SetupStage::conversion);
  const ConvertedHierarchy sell(h, slice_height);
  clock.emplace(profile_, amg::SetupStage::upload);
  check_fits(exec, sell.device_bytes(options.float_storage));
  for (std::size_t l = 0; l < h.levels.size(); ++l) {
    const auto& c = sell.levels[l];
    levels_.push_back(std::make_unique<Level>(exec, h.levels[l], c.a, c.p, c.r, options));
    sizes_.push_back({h.levels[l].a.rows, h.levels[l].a.nnz()});
  }
  sizes_.push_back({h.coarsest.rows, h.coarsest.nnz()});
  coarse_inverse_ = std::make_unique<amg::LevelMatrix>(exec, sell.coarse_inverse, options.float_storage);
  exec.synchronize();
}

Amg::~Amg() = default;

void Amg::apply(const Vector& r, Vector& z) const { cycle(0, r, z); }

// x = V(b) from x = 0: smooth, restrict the residual, recurse, prolong the correction, smooth again.
void Amg::cycle(std::size_t l, const Vector& b, Vector& x) const {
  if (l == levels_.size()) return coarse_inverse_->apply(exec_, b, x);
  const Level& level = *levels_[l];
  level.smoother.smooth(b, x, true);
  level.a.apply(exec_, x, level.correction);  // A x, in the correction's vector until it is needed
  waxpby(exec_, 1.0, b, -1.0, level.correction, level.residual);
  level.restriction.apply(exec_, level.residual, level.coarse_b);
  cycle(l + 1, level.coarse_b, level.coarse_x);
  level.prolongation.apply(exec_, level.coarse_x, level.correction);
  axpby(exec_, 1.0, level.correction, 1.0, x);
  level.smoother.smooth(b, x, false);
}

}  // namespace miniapp
