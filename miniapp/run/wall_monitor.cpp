#include "miniapp/run/wall_monitor.hpp"

#include <algorithm>
#include <cmath>

#include "operators/kernels/dot.hpp"
#include "operators/kernels/flow_kernels.hpp"
#include "operators/kernels/vector_ops.hpp"

namespace miniapp::run {
namespace {

std::vector<std::string> force_columns() {
  return {"time", "pressure_x", "pressure_y", "pressure_z", "viscous_x", "viscous_y", "viscous_z", "cd", "cl"};
}

}  // namespace

WallMonitor::WallMonitor(const Simulation& sim, std::optional<long> restart_step) : sim_(sim), nu_(sim.config.physics.nu) {
  const cases::CaseConfig& c = sim.config;
  const index_t owned = sim.domain->owned_count();
  std::vector<SampleWeights> wall_rows, force_rows;
  std::vector<double> area, distance;
  std::array<std::vector<double>, 3> normal, wall_velocity;
  for (const mesh::Patch& patch : sim.mesh.patches) {
    const cases::BoundaryCondition* bc = c.find_boundary(patch.name);
    if (!bc || !is_wall(bc->type)) continue;  // the cut patch of a rank's mesh has no condition
    int forces = -1;
    for (std::size_t k = 0; k < c.forces.size(); ++k)
      if (c.forces[k].patch == patch.name) forces = static_cast<int>(k);
    wall_names_.push_back(patch.name);
    walls_.first.push_back(static_cast<index_t>(area.size()));
    double patch_area = 0;
    for (index_t f = patch.first_face; f < patch.first_face + patch.face_count; ++f) {
      const index_t cell = sim.mesh.face_owner[f];
      if (cell >= owned) continue;  // a halo cell's face: its owner rank counts it
      const SampleWeights row{{operator_index(sim, cell), 1.0}};
      const double a = sim.geometry.face_area[f], d = sim.geometry.face_delta_n[f];
      const Vec3& n = sim.geometry.face_normal[f];
      wall_rows.push_back(row);
      area.push_back(a);
      distance.push_back(d);
      for (int k = 0; k < 3; ++k) {
        normal[k].push_back(n[k]);
        wall_velocity[k].push_back(bc->velocity[k]);
      }
      patch_area += a;
      if (forces < 0) continue;
      force_faces_.push_back({forces, a, d, n, bc->velocity});
      force_rows.push_back(row);
    }
    wall_area_.push_back(patch_area);
  }
  walls_.first.push_back(static_cast<index_t>(area.size()));
  sim.domain->sum(wall_area_);

  const Executor& exec = sim.exec;
  const index_t faces = static_cast<index_t>(area.size());
  walls_.cells.emplace(sim, wall_rows);
  walls_.area = Vector::from_host(exec, area);
  walls_.distance = Vector::from_host(exec, distance);
  for (int k = 0; k < 3; ++k) {
    walls_.normal[k] = Vector::from_host(exec, normal[k]);
    walls_.wall_velocity[k] = Vector::from_host(exec, wall_velocity[k]);
    walls_.velocity[k] = Vector(exec, faces);
  }
  walls_.tau = Vector(exec, faces);
  walls_.yplus = Vector(exec, faces);
  force_cells_.emplace(sim, force_rows);
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

void WallMonitor::queue_walls(const std::array<const Vector*, 3>& velocity, double scale, time::ResultBatch& batch) {
  queued_ = {};
  if (walls_.first.back() == 0) return;
  const Executor& exec = sim_.exec;
  const std::size_t walls = wall_names_.size();
  std::array<Vector*, 3> samples{&walls_.velocity[0], &walls_.velocity[1], &walls_.velocity[2]};
  walls_.cells->sample(velocity, samples);
  const std::array<const Vector*, 3> sampled{samples[0], samples[1], samples[2]};
  const std::array<const Vector*, 3> normal{&walls_.normal[0], &walls_.normal[1], &walls_.normal[2]};
  const std::array<const Vector*, 3> moving{&walls_.wall_velocity[0], &walls_.wall_velocity[1],
                                            &walls_.wall_velocity[2]};
  wall_shear(exec, sampled, scale, normal, moving, walls_.distance, nu_, walls_.tau, walls_.yplus);
  // Σ A τ and Σ A y⁺ of each patch with faces on this rank (one fused pair of dots, patches differ
  // in length), then the patches' maxima of y⁺; a patch without faces here keeps zeros.
  queued_ = batch.reserve(results());
  Vector sums = batch.window(queued_);
  fill(exec, 0.0, sums);
  for (std::size_t w = 0; w < walls; ++w) {
    const index_t first = walls_.first[w], count = walls_.first[w + 1] - first;
    if (count == 0) continue;
    const Vector tau = walls_.tau.window(first, count), yplus = walls_.yplus.window(first, count),
                 area = walls_.area.window(first, count);
    const std::array<const Vector*, 2> x{&tau, &yplus}, a{&area, &area};
    Vector out = sums.window(static_cast<index_t>(2 * w), 2);
    multi_dot(exec, x, a, out);
    Vector maximum = sums.window(static_cast<index_t>(2 * walls + w), 1);
    max_abs(exec, yplus, maximum);
  }
}

std::vector<WallQuantities> WallMonitor::wall_quantities(const time::ResultBatch& batch) {
  const std::size_t walls = wall_names_.size();
  std::vector<double> sums(2 * walls, 0.0), maxima(walls, 0.0);  // per wall Σ A τ, Σ A y⁺; max y⁺
  if (queued_.count > 0) {
    const std::span<const double> read = batch.values(queued_);
    std::copy(read.begin(), read.begin() + static_cast<std::ptrdiff_t>(2 * walls), sums.begin());
    std::copy(read.begin() + static_cast<std::ptrdiff_t>(2 * walls), read.end(), maxima.begin());
  }
  sim_.domain->sum(sums);
  std::vector<WallQuantities> out;
  for (std::size_t w = 0; w < walls; ++w) {
    const double area = wall_area_[w] > 0 ? wall_area_[w] : 1.0;  // a patch of no face reads 0
    out.push_back({std::sqrt(sums[2 * w] / area), sums[2 * w + 1] / area, sim_.domain->max(maxima[w])});
  }
  return out;
}

std::vector<WallQuantities> WallMonitor::wall_quantities(const std::array<const Vector*, 3>& velocity, double scale) {
  time::ResultBatch batch(sim_.exec, results());
  queue_walls(velocity, scale, batch);
  batch.read();
  return wall_quantities(batch);
}

std::vector<PatchForce> WallMonitor::forces(const std::array<const Vector*, 3>& velocity, const Vector& pressure,
                                            double scale) {
  const std::array<const Vector*, 4> fields{velocity[0], velocity[1], velocity[2], &pressure};
  const auto values = force_cells_->sample(fields);
  std::vector<double> sums(6 * sim_.config.forces.size(), 0.0);  // per force patch its six components
  for (std::size_t i = 0; i < force_faces_.size(); ++i) {
    const ForceFace& face = force_faces_[i];
    const Vec3 du = scale * Vec3{values[0][i], values[1][i], values[2][i]} - face.wall_velocity;
    const Vec3 tangential = du - dot(du, face.normal) * face.normal;  // as wall::shear_at
    double* force = &sums[6 * face.forces];
    const double p = scale * values[3][i], viscous = nu_ * face.area / face.distance;
    for (int k = 0; k < 3; ++k) {
      force[k] += p * face.area * face.normal[k];
      force[3 + k] += viscous * tangential[k];
    }
  }
  sim_.domain->sum(sums);
  std::vector<PatchForce> out;
  for (std::size_t k = 0; k < sim_.config.forces.size(); ++k) {
    const double* s = &sums[6 * k];
    out.push_back({{s[0], s[1], s[2]}, {s[3], s[4], s[5]}});
  }
  return out;
}

WallMonitor::Evaluation WallMonitor::evaluate(const std::array<const Vector*, 3>& velocity, const Vector* pressure,
                                              double scale) {
  Evaluation out{wall_quantities(velocity, scale), {}};
  if (pressure) out.forces = forces(velocity, *pressure, scale);
  return out;
}

double WallMonitor::friction_velocity(const std::array<const Vector*, 3>& velocity, double scale) {
  const std::vector<WallQuantities> walls = wall_quantities(velocity, scale);
  // Σ over patches of A u_τ² / Σ A, from the per-patch means.
  double stress = 0, area = 0;
  for (std::size_t w = 0; w < walls.size(); ++w) {
    stress += wall_area_[w] * walls[w].friction_velocity * walls[w].friction_velocity;
    area += wall_area_[w];
  }
  return area > 0 ? std::sqrt(stress / area) : 0.0;
}

void WallMonitor::queue(const time::FlowFields& f, time::ResultBatch& batch) {
  queue_walls({&f.u[0], &f.u[1], &f.u[2]}, 1.0, batch);
}

void WallMonitor::record(const time::FlowFields& f, const time::ResultBatch& batch, std::vector<double>& row) {
  Evaluation e{wall_quantities(batch), {}};
  if (!sim_.config.forces.empty()) e.forces = forces({&f.u[0], &f.u[1], &f.u[2]}, f.pressure, 1.0);
  for (const WallQuantities& w : e.walls) row.insert(row.end(), {w.friction_velocity, w.yplus_mean, w.yplus_max});
  for (std::size_t k = 0; k < force_files_.size(); ++k) {
    const cases::ForcesConfig& fc = sim_.config.forces[k];
    const PatchForce& force = e.forces[k];
    const Vec3 total = force.pressure + force.viscous;
    const double q = 0.5 * fc.reference_velocity * fc.reference_velocity * fc.reference_area;
    const double line[] = {f.time, force.pressure.x, force.pressure.y, force.pressure.z, force.viscous.x,
                           force.viscous.y, force.viscous.z, dot(total, fc.drag_direction) / q,
                           dot(total, fc.lift_direction) / q};
    force_files_[k]->write(f.step, line);
  }
}

}  // namespace miniapp::run
