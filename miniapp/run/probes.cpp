#include "miniapp/run/probes.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace miniapp::run {
namespace {

double dot3(const Vec3& a, const Vec3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
Vec3 minus(const Vec3& a, const Vec3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }

// Whether `point` lies in the box of every rank's mesh nodes (a periodic face is checked from its
// owner's side only, so this closes the far side of a periodic direction).
bool inside_bounding_box(const Simulation& sim, const Vec3& point, double tolerance) {
  double low[3], high[3];
  for (int a = 0; a < 3; ++a) low[a] = std::numeric_limits<double>::infinity(), high[a] = -low[a];
  for (const Vec3& n : sim.mesh.nodes) {
    const double c[] = {n.x, n.y, n.z};
    for (int a = 0; a < 3; ++a) low[a] = std::min(low[a], c[a]), high[a] = std::max(high[a], c[a]);
  }
  const double p[] = {point.x, point.y, point.z};
  bool inside = true;
  for (int a = 0; a < 3; ++a)
    inside = inside && p[a] >= sim.domain->min(low[a]) - tolerance && p[a] <= sim.domain->max(high[a]) + tolerance;
  return inside;
}

std::string show(const Vec3& p) {
  std::ostringstream out;
  out << "[" << p.x << ", " << p.y << ", " << p.z << "]";
  return out.str();
}

}  // namespace

index_t containing_cell(const Simulation& sim, const Vec3& point, double tolerance) {
  const mesh::Mesh& m = sim.mesh;
  const index_t owned = sim.domain->owned_count();
  std::vector<char> outside(static_cast<std::size_t>(owned), 0);
  std::vector<char> periodic(static_cast<std::size_t>(m.face_count()), 0);
  for (const mesh::PeriodicFace& p : m.periodic_faces) periodic[p.face] = 1;
  for (index_t f = 0; f < m.face_count(); ++f) {
    const double side = dot3(minus(point, sim.geometry.face_centroid[f]), sim.geometry.face_normal[f]);
    const index_t owner = m.face_owner[f], neighbour = m.face_neighbour[f];
    if (owner < owned && side > tolerance) outside[owner] = 1;
    if (neighbour >= 0 && neighbour < owned && !periodic[f] && side < -tolerance) outside[neighbour] = 1;
  }
  const auto found = std::find(outside.begin(), outside.end(), 0);
  return found == outside.end() ? -1 : static_cast<index_t>(found - outside.begin());
}

SampleWeights interpolation_weights(const Simulation& sim, index_t cell, const Vec3& point) {
  const index_t row = operator_index(sim, cell);
  const Vec3 offset = minus(point, sim.geometry.cell_centroid[cell]);
  const double d[] = {offset.x, offset.y, offset.z};
  SampleWeights w{{row, 1.0}};
  for (int b = 0; b < 3; ++b) {
    const CsrMatrix& g = sim.probe_cell_gradient[b];
    for (index_t k = g.row_ptr[row]; k < g.row_ptr[row + 1]; ++k) w.push_back({g.col[k], d[b] * g.val[k]});
  }
  return w;
}

Probes::Probes(const Simulation& sim, std::optional<long> restart_step) : sim_(sim) {
  const cases::CaseConfig& c = sim.config;
  if (c.probes.empty()) return;
  // Relative to the mesh's extent: round-off of the face planes, not a real distance.
  double extent = 0;
  for (const Vec3& n : sim.mesh.nodes) extent = std::max({extent, std::abs(n.x), std::abs(n.y), std::abs(n.z)});
  const double tolerance = 1e-9 * sim.domain->max(extent);
  std::vector<SampleWeights> rows;
  std::vector<std::string> columns{"time"};
  for (const cases::ProbeConfig& probe : c.probes) {
    const index_t cell = inside_bounding_box(sim, probe.position, tolerance)
                             ? containing_cell(sim, probe.position, tolerance) : -1;
    // The lowest rank that holds the point samples it.
    const double chosen = sim.domain->min(cell >= 0 ? sim.rank() : sim.ranks());
    if (chosen >= sim.ranks())
      throw c.origins.error("probes." + probe.name + ".position", show(probe.position) + " is outside the mesh");
    rows.push_back(chosen == sim.rank() ? interpolation_weights(sim, cell, probe.position) : SampleWeights{});
    for (const char* q : {"_u", "_v", "_w", "_p"}) columns.push_back(probe.name + q);
  }
  sampler_.emplace(sim, rows);
  if (sim.rank() == 0) file_.emplace(std::filesystem::path(c.output.directory) / "probes.csv", columns, restart_step);
}

void Probes::queue(const time::FlowFields& f, time::ResultBatch& batch) {
  if (!sampler_) return;
  const index_t count = static_cast<index_t>(sampler_->size());
  queued_ = batch.reserve(results());
  Vector all = batch.window(queued_);
  std::vector<Vector> windows;
  for (index_t k = 0; k < 4; ++k) windows.push_back(all.window(k * count, count));
  const Vector* fields[] = {&f.u[0], &f.u[1], &f.u[2], &f.pressure};
  Vector* out[] = {&windows[0], &windows[1], &windows[2], &windows[3]};
  sampler_->sample(fields, out);
}

std::vector<double> Probes::values(const time::ResultBatch& batch) {
  if (!sampler_) return {};
  const std::span<const double> sampled = batch.values(queued_);
  const std::size_t count = sampler_->size();
  std::vector<double> out;
  for (std::size_t i = 0; i < count; ++i)
    for (std::size_t k = 0; k < 4; ++k) out.push_back(sampled[k * count + i]);
  sim_.domain->sum(out);
  return out;
}

void Probes::record(const time::FlowFields& f, const time::ResultBatch& batch) {
  if (!sampler_) return;
  std::vector<double> line{f.time};
  const std::vector<double> v = values(batch);
  line.insert(line.end(), v.begin(), v.end());
  if (file_) file_->write(f.step, line);
}

}  // namespace miniapp::run
