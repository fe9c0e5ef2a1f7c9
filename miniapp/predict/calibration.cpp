#include "miniapp/predict/calibration.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "miniapp/predict/build_info.hpp"

namespace miniapp::predict {
namespace {

constexpr std::string_view variant_names[kernel_variant_count] = {
    "spmv_sell_1", "spmv_sell_3", "spmv_csr_1", "spmv_interleaved_3", "axpy", "dot", "pointwise", "copy"};

constexpr std::string_view unit_names[iteration_unit_count] = {"pcg_jacobi", "pcg_aip1", "batched_pcg",
                                                               "pcg_aip1_product", "pcg_amg"};

// y at x on the polyline through (x_i, y_i) (x increasing) in log x; the end values beyond the ends.
double log_interpolate(const std::vector<std::pair<double, double>>& xy, double x) {
  if (x <= xy.front().first) return xy.front().second;
  if (x >= xy.back().first) return xy.back().second;
  const auto above = std::find_if(xy.begin(), xy.end(), [&](const auto& p) { return p.first >= x; });
  const auto& [xa, ya] = *(above - 1);
  const auto& [xb, yb] = *above;
  return ya + std::log(x / xa) / std::log(xb / xa) * (yb - ya);
}

}  // namespace

std::string_view name(IterationUnit unit) { return unit_names[static_cast<int>(unit)]; }

std::optional<IterationUnit> iteration_unit_from_name(std::string_view text) {
  for (int u = 0; u < iteration_unit_count; ++u)
    if (unit_names[u] == text) return static_cast<IterationUnit>(u);
  return std::nullopt;
}

std::string_view name(KernelVariant variant) { return variant_names[static_cast<int>(variant)]; }

std::optional<KernelVariant> kernel_variant_from_name(std::string_view text) {
  for (int v = 0; v < kernel_variant_count; ++v)
    if (variant_names[v] == text) return static_cast<KernelVariant>(v);
  return std::nullopt;
}

KernelVariant priced_variant(KernelKind kind) {
  switch (kind) {
    case KernelKind::spmv: return KernelVariant::spmv_sell_1;
    case KernelKind::axpy: return KernelVariant::axpy;
    case KernelKind::dot: return KernelVariant::dot;
    case KernelKind::pointwise: return KernelVariant::pointwise;
    case KernelKind::copy: return KernelVariant::copy;
  }
  return KernelVariant::pointwise;
}

KernelVariant priced_variant(SpmvForm form) {
  switch (form) {
    case SpmvForm::sell: return KernelVariant::spmv_sell_1;
    case SpmvForm::sell_vectors: return KernelVariant::spmv_sell_3;
    case SpmvForm::sell_interleaved: return KernelVariant::spmv_interleaved_3;
    case SpmvForm::csr: return KernelVariant::spmv_csr_1;
  }
  return KernelVariant::spmv_sell_1;
}

std::string_view name(CacheLevel level) {
  constexpr std::string_view names[cache_level_count] = {"hot", "warm", "streaming"};
  return names[static_cast<int>(level)];
}

double Calibration::kept_share(double bytes) const {
  const std::vector<RetentionPoint>& r = cache_retention;
  if (r.empty() || bytes > r.back().bytes) return 0.0;
  std::vector<std::pair<double, double>> points;
  for (const RetentionPoint& p : r) points.push_back({p.bytes, p.kept});
  return log_interpolate(points, bytes);
}

double Calibration::batched_width_cost(double rows, double systems) const {
  if (batched_widths.empty()) return 1.0;
  std::vector<std::pair<double, double>> by_rows;  // (rows, the cost at `systems` on those rows)
  for (auto p = batched_widths.begin(); p != batched_widths.end();) {
    std::vector<std::pair<double, double>> by_systems;
    const double r = p->rows;
    for (; p != batched_widths.end() && p->rows == r; ++p) by_systems.push_back({p->systems, p->cost});
    by_rows.push_back({r, log_interpolate(by_systems, systems)});
  }
  return log_interpolate(by_rows, rows);
}

double Calibration::batched_amg_cost(double rows) const {
  if (batched_amg_blocks.empty()) return 1.0;
  std::vector<std::pair<double, double>> by_rows;
  for (const WidthPoint& p : batched_amg_blocks) by_rows.push_back({p.rows, p.cost});
  return log_interpolate(by_rows, rows);
}

double Calibration::retained_cache_bytes() const {
  const std::vector<RetentionPoint>& r = cache_retention;
  constexpr double half = 0.5;
  if (r.empty() || r.front().kept < half) return 0.0;
  for (std::size_t i = 1; i < r.size(); ++i)
    if (r[i].kept < half) {  // where the line between points i − 1 and i crosses one half, in log bytes
      const double w = (r[i - 1].kept - half) / (r[i - 1].kept - r[i].kept);
      return r[i - 1].bytes * std::pow(r[i].bytes / r[i - 1].bytes, w);
    }
  return r.back().bytes;
}

Calibration Calibration::what_if(double gb_per_s, double latency_seconds, const std::string& description) const {
  Calibration c = *this;
  c.device = {"what-if", description, device.cache_bytes, device.private_cache_bytes};
  c.copy_gb_per_s = gb_per_s;
  const double factor = gb_per_s / copy_gb_per_s;
  for (auto& levels : c.curves)
    for (auto& curve : levels) curve = curve.scaled(factor, latency_seconds >= 0 ? latency_seconds : curve.latency());
  if (c.graph_curves)
    for (auto& levels : *c.graph_curves)
      for (auto& curve : levels) curve = curve.scaled(factor, curve.latency());
  for (auto& curve : c.iteration_curves)
    if (curve) curve = curve->scaled(factor, curve->latency());
  // A unit timed on the ranks holds their communication, which another device's memory does not
  // speed up: its iterations are priced by the one-rank unit and the halo and reduction curves instead.
  if (c.communication) c.communication->iterations.clear();
  return c;
}

DeviceDescription describe_device(const Executor& exec) {
  DeviceDescription d{std::string(name(exec.backend())), exec.description(), 0, 0};
  if (exec.backend() == Backend::cpu) {
    const long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE), l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
    d.cache_bytes = l3 > 0 ? static_cast<double>(l3) : 0.0;
    d.private_cache_bytes = l2 > 0 ? static_cast<double>(l2) : 0.0;
  } else {
    d.cache_bytes = 50.0 * (1 << 20);  // H100/H200 L2; the device header does not report it
  }
  return d;
}

BuildDescription describe_build() {
  return {build_info::git, build_info::compiler, build_info::build_type, build_info::cuda};
}

}  // namespace miniapp::predict
