#include "miniapp/predict/comm_model.hpp"

#include <algorithm>
#include <cmath>

namespace miniapp::predict {

const HaloCurve& CommCalibration::halo_for(int ranks) const {
  for (const HaloCurve& h : halo)
    if (h.ranks >= ranks) return h;
  return halo.back();
}

const CostCurve* CommCalibration::iteration_curve(IterationUnit unit, int ranks) const {
  for (const RankIterationCurve& i : iterations)
    if (i.ranks == ranks && i.unit == unit) return &i.curve;
  return nullptr;
}

double CommCalibration::halo_seconds(int ranks, double vectors, double neighbours, double bytes) const {
  if (bytes <= 0 || vectors <= 0 || neighbours <= 0) return 0.0;
  const HaloCurve& h = halo_for(ranks);
  const double message = bytes / (vectors * neighbours);
  return h.curve.latency() + bytes / (h.neighbours * h.curve.bandwidth(message));
}

double CommCalibration::allreduce_seconds(int ranks) const {
  if (ranks <= 1 || allreduce.empty()) return 0.0;
  if (allreduce.size() == 1) return allreduce.front().seconds;
  const double x = std::log2(static_cast<double>(ranks));
  std::size_t i = 1;  // the segment [i − 1, i] holding x, or the last one beyond the measured ranks
  while (i + 1 < allreduce.size() && std::log2(allreduce[i].ranks) < x) ++i;
  const ReductionPoint &a = allreduce[i - 1], &b = allreduce[i];
  const double xa = std::log2(a.ranks), xb = std::log2(b.ranks);
  const double t = a.seconds + (b.seconds - a.seconds) * (x - xa) / (xb - xa);
  return std::max(t, 0.0);
}

std::array<double, CommLoad::field_count> CommLoad::values() const {
  return {updates,          overlapped_updates, vectors,    messages,       sent_bytes, received_bytes,
          overlapped_bytes, overlapped_calls,   reductions, reduced_values, seconds};
}

CommLoad CommLoad::from_values(const std::array<double, field_count>& v) {
  return {v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8], v[9], v[10]};
}

CommLoad& CommLoad::operator+=(const CommLoad& o) {
  auto v = values();
  const auto w = o.values();
  for (int i = 0; i < field_count; ++i) v[i] += w[i];
  return *this = from_values(v);
}

CommLoad CommLoad::scaled(double factor) const {
  auto v = values();
  for (double& x : v) x *= factor;
  return from_values(v);
}

}  // namespace miniapp::predict
