#include "miniapp/run/snapshot.hpp"

#include <charconv>
#include <string_view>

namespace miniapp::run {
namespace {

constexpr const char* velocity_names[] = {"u", "v", "w"};
constexpr const char* old_velocity_names[] = {"u_old", "v_old", "w_old"};
constexpr const char* driving_force_names[] = {"driving_force_x", "driving_force_y", "driving_force_z"};
// Checkpoint scalars of the pressure solver's timed choices: this prefix, then the choice's name.
constexpr std::string_view solver_choice_prefix = "pressure_solver.";

// The shortest text that reads back as the same double.
std::string text(double v) {
  char buffer[32];
  const auto end = std::to_chars(buffer, buffer + sizeof buffer, v).ptr;
  return std::string(buffer, end);
}

std::string text(const Vec3& v) {
  std::string out = "[";
  out += text(v.x);
  out += ", ";
  out += text(v.y);
  out += ", ";
  out += text(v.z);
  return out + "]";
}

}  // namespace

void write_vtk(const Simulation& sim, const std::array<std::vector<double>, 9>& gradient, output::VtkWriter& vtk,
               const TimeAverages::Means* means) {
  const auto& f = *sim.fields;
  output::CellFields cells;
  for (int d = 0; d < 3; ++d) cells.velocity[d] = to_mesh_order(sim, f.u[d]);
  cells.pressure = to_mesh_order(sim, f.pressure);
  cells.eddy_viscosity = to_mesh_order(sim, f.eddy_viscosity);
  output::compute_velocity_invariants(gradient, cells);
  if (means) {
    cells.mean_velocity = means->velocity;
    cells.mean_pressure = means->pressure;
    cells.mean_eddy_viscosity = means->eddy_viscosity;
    cells.reynolds_stress = means->stress;
  }
  vtk.write(f.step, f.time, cells);
}

output::CaseSettings case_settings(const cases::CaseConfig& config) {
  const auto& p = config.physics;
  output::CaseSettings s = {{"physics.re", text(p.re)},
                            {"physics.nu", text(p.nu)},
                            {"physics.body_force", text(p.body_force)},
                            {"physics.les", std::string(cases::name(p.les))},
                            {"physics.les_constant", text(p.les_constant)}};
  // Only where set, so that checkpoints of runs without it still match.
  if (p.bulk_velocity) s.emplace_back("physics.bulk_velocity", text(*p.bulk_velocity));
  for (const auto& b : config.boundaries) {
    s.emplace_back("boundary." + b.patch + ".type", std::string(cases::name(b.type)));
    s.emplace_back("boundary." + b.patch + ".velocity", text(b.velocity));
  }
  return s;
}

output::CheckpointData checkpoint_data(const Simulation& sim, const output::CheckpointData& extra) {
  const auto& f = *sim.fields;
  output::CheckpointData data;
  data.case_name = sim.config.name;
  data.mesh = output::mesh_fingerprint(sim.mesh);
  data.step = f.step;
  data.time = f.time;
  data.dt = f.dt;
  data.dt_old = f.dt_old;
  data.settings = case_settings(sim.config);
  for (int d = 0; d < 3; ++d) data.arrays.emplace_back(velocity_names[d], to_mesh_order(sim, f.u[d]));
  for (int d = 0; d < 3; ++d) data.arrays.emplace_back(old_velocity_names[d], to_mesh_order(sim, f.u_old[d]));
  data.arrays.emplace_back("pressure", to_mesh_order(sim, f.pressure));
  data.arrays.emplace_back("eddy_viscosity", to_mesh_order(sim, f.eddy_viscosity));
  // Faces keep mesh order in every backend.
  data.arrays.emplace_back("face_velocity", f.face_velocity.to_host());
  data.arrays.emplace_back("face_viscosity", f.face_viscosity.to_host());
  data.arrays.insert(data.arrays.end(), extra.arrays.begin(), extra.arrays.end());
  data.scalars = extra.scalars;
  if (sim.config.physics.bulk_velocity)
    for (int d = 0; d < 3; ++d) data.scalars.emplace_back(driving_force_names[d], f.driving_force[d]);
  for (const auto& [name, value] : sim.scheme->pressure_solver().timed_choices())
    data.scalars.emplace_back(std::string(solver_choice_prefix) + name, value);
  return data;
}

void load_checkpoint_fields(Simulation& sim, const output::CheckpointData& data) {
  auto& f = *sim.fields;
  const auto cells = static_cast<std::size_t>(sim.domain->owned_count());
  const auto faces = static_cast<std::size_t>(sim.mesh.face_count());
  for (int d = 0; d < 3; ++d) {
    from_mesh_order(sim, data.array(velocity_names[d], cells), f.u[d]);
    from_mesh_order(sim, data.array(old_velocity_names[d], cells), f.u_old[d]);
  }
  from_mesh_order(sim, data.array("pressure", cells), f.pressure);
  from_mesh_order(sim, data.array("eddy_viscosity", cells), f.eddy_viscosity);
  f.face_velocity.copy_from_host(data.array("face_velocity", faces));
  f.face_viscosity.copy_from_host(data.array("face_viscosity", faces));
  f.step = data.step;
  f.time = data.time;
  f.dt_old = data.dt_old;
  if (sim.config.physics.bulk_velocity)
    for (int d = 0; d < 3; ++d) f.driving_force[d] = data.scalar(driving_force_names[d]);
}

std::string repeat_timed_choices(Simulation& sim, const output::CheckpointData& data) {
  time::PressureSolver::Choices choices;
  for (const auto& [name, value] : data.scalars)
    if (name.starts_with(solver_choice_prefix)) choices.emplace_back(name.substr(solver_choice_prefix.size()), value);
  const std::string repeated = sim.scheme->pressure_solver().repeat_choices(choices);
  take_pressure_path(sim);
  return repeated;
}

void finish_restore(Simulation& sim) {
  auto& f = *sim.fields;
  // Checkpoints hold owned values: the halos come from their owners.
  Vector* halo[] = {&f.u[0], &f.u[1], &f.u[2], &f.u_old[0], &f.u_old[1], &f.u_old[2], &f.pressure, &f.eddy_viscosity};
  sim.domain->update_halo(halo);
  // Recomputed from the restored u_s and ν_s: the same Δt as the checkpoint's unless the case's CFL
  // settings were changed for the restart; also restores the CFL number the integrator reports.
  f.dt = sim.scheme->stable_dt(f);
}

}  // namespace miniapp::run
