#include "miniapp/run/wall_monitor.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace miniapp::run {
namespace {

double dot3(const Vec3& a, const Vec3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

bool is_wall(BoundaryKind kind) { return kind == BoundaryKind::wall || kind == BoundaryKind::moving_wall; }

std::vector<std::string> force_columns() {
  return {"time", "pressure_x", "pressure_y", "pressure_z", "viscous_x", "viscous_y", "viscous_z", "cd", "cl"};
}

}  // namespace

WallMonitor::WallMonitor(const Simulation& sim, std::optional<long> restart_step) : sim_(sim), nu_(sim.config.physics.nu) {
  const cases::CaseConfig& c = sim.config;
  const index_t owned = sim.domain->owned_count();
  std::vector<SampleWeights> force_rows, other_rows;
  for (const mesh::Patch& patch : sim.mesh.patches) {
    const cases::BoundaryCondition* bc = c.find_boundary(patch.name);
    if (!bc || !is_wall(bc->type)) continue;  // the cut patch of a rank's mesh has no condition
    const int wall = static_cast<int>(wall_names_.size());
    wall_names_.push_back(patch.name);
    int forces = -1;
    for (std::size_t k = 0; k < c.forces.size(); ++k)
      if (c.forces[k].patch == patch.name) forces = static_cast<int>(k);
    wall_has_forces_.push_back(forces >= 0);
    FaceGroup& group = forces >= 0 ? force_walls_ : other_walls_;
    std::vector<SampleWeights>& rows = forces >= 0 ? force_rows : other_rows;
    for (index_t f = patch.first_face; f < patch.first_face + patch.face_count; ++f) {
      const index_t cell = sim.mesh.face_owner[f];
      if (cell >= owned) continue;  // a halo cell's face: its owner rank counts it
      group.faces.push_back({wall, forces, sim.geometry.face_area[f], sim.geometry.face_delta_n[f],
                             sim.geometry.face_normal[f], bc->velocity});
      rows.push_back({{operator_index(sim, cell), 1.0}});
    }
  }
  force_walls_.sampler.emplace(sim, force_rows);
  other_walls_.sampler.emplace(sim, other_rows);
  if (sim.rank() != 0) return;
  for (const cases::ForcesConfig& fc : c.forces)
    force_files_.push_back(std::make_unique<output::SeriesWriter>(
        std::filesystem::path(c.output.directory) / ("forces_" + fc.patch + ".csv"), force_columns(), restart_step));
}

std::vector<std::string> WallMonitor::diagnostics_columns() const {
  std::vector<std::string> out;
  for (const std::string& name : wall_names_)
    for (const char* q : {"utau_", "yplus_mean_", "yplus_max_"}) out.push_back(q + name);
  return out;
}

void WallMonitor::accumulate(FaceGroup& group, const std::array<const Vector*, 3>& velocity, const Vector* pressure,
                             double scale, std::vector<double>& sums, std::vector<double>& maxima) const {
  std::vector<const Vector*> fields(velocity.begin(), velocity.end());
  if (pressure) fields.push_back(pressure);
  const auto values = group.sampler->sample(fields);
  const std::size_t walls = wall_names_.size();
  for (std::size_t i = 0; i < group.faces.size(); ++i) {
    const Face& face = group.faces[i];
    Vec3 du{scale * values[0][i] - face.wall_velocity.x, scale * values[1][i] - face.wall_velocity.y,
            scale * values[2][i] - face.wall_velocity.z};
    const double normal = dot3(du, face.normal);
    const Vec3 tangential{du.x - normal * face.normal.x, du.y - normal * face.normal.y, du.z - normal * face.normal.z};
    const double tau = nu_ * std::sqrt(dot3(tangential, tangential)) / face.distance;
    const double yplus = face.distance * std::sqrt(tau) / nu_;
    double* wall = &sums[3 * face.wall];
    wall[0] += face.area * tau, wall[1] += face.area * yplus, wall[2] += face.area;
    maxima[face.wall] = std::max(maxima[face.wall], yplus);
    if (face.forces < 0 || !pressure) continue;
    double* force = &sums[3 * walls + 6 * face.forces];
    const double p = scale * values[3][i], viscous = nu_ * face.area / face.distance;
    force[0] += p * face.area * face.normal.x, force[1] += p * face.area * face.normal.y;
    force[2] += p * face.area * face.normal.z;
    force[3] += viscous * tangential.x, force[4] += viscous * tangential.y, force[5] += viscous * tangential.z;
  }
}

WallMonitor::Evaluation WallMonitor::evaluate(const std::array<const Vector*, 3>& velocity, const Vector* pressure,
                                              double scale, bool all_walls) {
  const std::size_t walls = wall_names_.size(), forces = sim_.config.forces.size();
  // Per wall Σ A τ, Σ A y⁺, Σ A; per force patch its six components.
  std::vector<double> sums(3 * walls + 6 * forces, 0.0), maxima(walls, 0.0);
  accumulate(force_walls_, velocity, pressure, scale, sums, maxima);
  if (all_walls) accumulate(other_walls_, velocity, pressure, scale, sums, maxima);
  sim_.domain->sum(sums);
  constexpr double not_sampled = std::numeric_limits<double>::quiet_NaN();  // written as nan
  Evaluation out;
  for (std::size_t w = 0; w < walls; ++w) {
    if (!all_walls && !wall_has_forces_[w]) {
      out.walls.push_back({not_sampled, not_sampled, not_sampled});
      continue;
    }
    const double* s = &sums[3 * w];
    const double area = s[2] > 0 ? s[2] : 1.0;  // a patch of no face (on every rank) reads 0
    out.walls.push_back({std::sqrt(s[0] / area), s[1] / area, sim_.domain->max(maxima[w])});
  }
  for (std::size_t k = 0; k < forces && pressure; ++k) {
    const double* s = &sums[3 * walls + 6 * k];
    out.forces.push_back({{s[0], s[1], s[2]}, {s[3], s[4], s[5]}});
  }
  return out;
}

double WallMonitor::friction_velocity(const std::array<const Vector*, 3>& velocity, double scale) {
  const Evaluation e = evaluate(velocity, nullptr, scale);
  // Σ over patches of A u_τ² / Σ A, from the per-patch means.
  std::vector<double> patch_area(wall_names_.size(), 0.0);
  for (const FaceGroup* group : {&force_walls_, &other_walls_})
    for (const Face& face : group->faces) patch_area[face.wall] += face.area;
  sim_.domain->sum(patch_area);
  double stress = 0, area = 0;
  for (std::size_t w = 0; w < e.walls.size(); ++w) {
    stress += patch_area[w] * e.walls[w].friction_velocity * e.walls[w].friction_velocity;
    area += patch_area[w];
  }
  return area > 0 ? std::sqrt(stress / area) : 0.0;
}

void WallMonitor::record(const time::FlowFields& f, std::vector<double>& row, bool all_walls) {
  const Evaluation e =
      evaluate({&f.u[0], &f.u[1], &f.u[2]}, sim_.config.forces.empty() ? nullptr : &f.pressure, 1.0, all_walls);
  for (const WallQuantities& w : e.walls) row.insert(row.end(), {w.friction_velocity, w.yplus_mean, w.yplus_max});
  for (std::size_t k = 0; k < force_files_.size(); ++k) {
    const cases::ForcesConfig& fc = sim_.config.forces[k];
    const PatchForce& force = e.forces[k];
    const Vec3 total{force.pressure.x + force.viscous.x, force.pressure.y + force.viscous.y,
                     force.pressure.z + force.viscous.z};
    const double q = 0.5 * fc.reference_velocity * fc.reference_velocity * fc.reference_area;
    const double line[] = {f.time, force.pressure.x, force.pressure.y, force.pressure.z, force.viscous.x,
                           force.viscous.y, force.viscous.z, dot3(total, fc.drag_direction) / q,
                           dot3(total, fc.lift_direction) / q};
    force_files_[k]->write(f.step, line);
  }
}

}  // namespace miniapp::run
