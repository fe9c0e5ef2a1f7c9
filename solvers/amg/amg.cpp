#include "solvers/amg/amg.hpp"

#include <cstdio>
#include <string>

#include "operators/backend/cuda/device.hpp"
#include "operators/kernels/spmv.hpp"
#include "operators/kernels/vector_ops.hpp"

namespace miniapp {

// One level above the coarsest, on the executor. b and x are the coarser level's right-hand side and
// solution (level l + 1's), owned here; the finest level's are the apply's r and z.
struct Amg::Level {
  Level(const Executor& exec, const amg::HostLevel& host, const SellMatrix& host_a, const SellMatrix& host_p,
        const SellMatrix& host_r, const amg::AmgOptions& options)
      : a(exec, host_a), prolongation(exec, host_p), restriction(exec, host_r),
        smoother(exec, a, host.diagonal, host.lambda_max, options.smoother_ratio, options.smoother_degree),
        residual(exec, host_a.rows), correction(exec, host_a.rows), coarse_b(exec, host_r.rows),
        coarse_x(exec, host_r.rows) {}
  DeviceSell a, prolongation, restriction;
  amg::ChebyshevSmoother smoother;
  mutable Vector residual, correction, coarse_b, coarse_x;
};

namespace {

std::size_t sell_bytes(const SellMatrix& m) {
  return sizeof(index_t) * m.slice_ptr.size() + (sizeof(index_t) + sizeof(double)) * m.col.size();
}

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

// Each level's matrices in sELL on the host, before upload.
struct ConvertedLevel {
  SellMatrix a, p, r;
};

ConvertedLevel convert(const amg::HostLevel& level, index_t slice_height) {
  return {to_sell(level.a, slice_height), to_sell(level.prolongation, slice_height),
          to_sell(level.restriction, slice_height)};
}

// A level's vectors: D⁻¹ and D⁻¹/θ, the smoother's three, residual and correction; the coarse b and x.
std::size_t level_vector_bytes(const ConvertedLevel& c) {
  return sizeof(double) * (7 * static_cast<std::size_t>(c.a.rows) + 2 * static_cast<std::size_t>(c.r.rows));
}

}  // namespace

Amg::Amg(const Executor& exec, const CsrMatrix& a, const amg::AmgOptions& options, index_t slice_height)
    : Amg(exec, amg::build_hierarchy(a, options), options, slice_height) {}

std::size_t Amg::device_bytes(const amg::HostHierarchy& h, index_t slice_height) {
  std::size_t bytes = sell_bytes(to_sell(h.coarse_inverse, slice_height));
  for (const amg::HostLevel& level : h.levels) {
    const ConvertedLevel c = convert(level, slice_height);
    bytes += sell_bytes(c.a) + sell_bytes(c.p) + sell_bytes(c.r) + level_vector_bytes(c);
  }
  return bytes;
}

Amg::Amg(const Executor& exec, const amg::HostHierarchy& h, const amg::AmgOptions& options, index_t slice_height)
    : exec_(exec), operator_complexity_(amg::operator_complexity(h)) {
  std::vector<ConvertedLevel> sell;
  std::size_t bytes = 0;
  for (const amg::HostLevel& level : h.levels) {
    sell.push_back(convert(level, slice_height));
    bytes += sell_bytes(sell.back().a) + sell_bytes(sell.back().p) + sell_bytes(sell.back().r) +
             level_vector_bytes(sell.back());
    sizes_.push_back({level.a.rows, level.a.nnz()});
  }
  const SellMatrix coarse = to_sell(h.coarse_inverse, slice_height);
  sizes_.push_back({h.coarsest.rows, h.coarsest.nnz()});
  check_fits(exec, bytes + sell_bytes(coarse));
  for (std::size_t l = 0; l < h.levels.size(); ++l)
    levels_.push_back(std::make_unique<Level>(exec, h.levels[l], sell[l].a, sell[l].p, sell[l].r, options));
  coarse_inverse_ = std::make_unique<DeviceSell>(exec, coarse);
}

Amg::~Amg() = default;

void Amg::apply(const Vector& r, Vector& z) const { cycle(0, r, z); }

// x = V(b) from x = 0: smooth, restrict the residual, recurse, prolong the correction, smooth again.
void Amg::cycle(std::size_t l, const Vector& b, Vector& x) const {
  if (l == levels_.size()) return spmv(exec_, *coarse_inverse_, b, x);
  const Level& level = *levels_[l];
  level.smoother.smooth(b, x, true);
  spmv(exec_, level.a, x, level.correction);  // A x, in the correction's vector until it is needed
  waxpby(exec_, 1.0, b, -1.0, level.correction, level.residual);
  spmv(exec_, level.restriction, level.residual, level.coarse_b);
  cycle(l + 1, level.coarse_b, level.coarse_x);
  spmv(exec_, level.prolongation, level.coarse_x, level.correction);
  axpby(exec_, 1.0, level.correction, 1.0, x);
  level.smoother.smooth(b, x, false);
}

}  // namespace miniapp
