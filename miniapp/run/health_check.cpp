#include "miniapp/run/health_check.hpp"

#include <cmath>
#include <limits>
#include <sstream>

namespace miniapp::run {
namespace {

// An explicit scheme is far past its stability limit at this CFL number: the run is diverging.
constexpr double exploding_cfl = 10.0;

struct NonFinite {
  std::string field;
  long long cell = -1;  // global (whole-mesh) index
  Vec3 centroid{0, 0, 0};
};

// The first field (in the order below) holding a value that is not finite, and its lowest global
// cell; over every rank (collective on several ranks). Empty when every value is finite.
std::optional<NonFinite> locate_non_finite(const Simulation& sim) {
  const auto& f = *sim.fields;
  const std::pair<const char*, const Vector*> fields[] = {
      {"u", &f.u[0]}, {"v", &f.u[1]}, {"w", &f.u[2]}, {"pressure", &f.pressure}, {"eddy viscosity", &f.eddy_viscosity}};
  const auto* comm = sim.domain->communicator();
  for (const auto& [name, field] : fields) {
    const std::vector<double> values = to_mesh_order(sim, *field);
    long long cell = std::numeric_limits<long long>::max();
    std::size_t local = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
      if (std::isfinite(values[i])) continue;
      const long long global = sim.owned_piece ? sim.global_cell_index[i] : static_cast<long long>(i);
      if (global < cell) cell = global, local = i;
    }
    const long long first = comm ? comm->allreduce(cell, parallel::ReduceOp::min) : cell;
    if (first == std::numeric_limits<long long>::max()) continue;
    // The owner of that cell gives its centroid; the others add nothing to the max.
    const double none = -std::numeric_limits<double>::infinity();
    Vec3 at = cell == first ? sim.geometry.cell_centroid[local] : Vec3{none, none, none};
    if (comm) at = {comm->allreduce(at.x, parallel::ReduceOp::max), comm->allreduce(at.y, parallel::ReduceOp::max),
                    comm->allreduce(at.z, parallel::ReduceOp::max)};
    return NonFinite{name, first, at};
  }
  return std::nullopt;
}

// What is left to continue from, and what to change: a smaller time step when the step passed its
// stability limit (or its fraction of it is unknown), else a look at the case's input.
std::string what_next(const CheckpointRecord& c, const cases::NumericsConfig& n, double cfl) {
  std::ostringstream out;
  if (c.last_step) {
    out << "the last checkpoint (step " << *c.last_step << ") in " << c.directory << " is left intact";
  } else {
    out << "no checkpoint has been written (";
    if (std::isfinite(c.next_time)) out << "the first was due at t = " << c.next_time << ")";
    else out << "output.checkpoint_interval = 0 writes one only at the end)";
  }
  if (std::isfinite(cfl) && cfl <= 1) {
    out << "; the step was within its stability limit (CFL " << cfl
        << "): look for the cause in the initial field, the boundary values or the forcing";
    return out.str();
  }
  out << (c.last_step ? "; restart from it (--restart " + c.directory + ") with " : "; run again with ");
  if (n.dt) {
    out << "a smaller numerics.dt (" << *n.dt << " took " << cfl
        << " times the stability limit at this step) or none, for the controlled time step";
  } else {
    out << "a smaller numerics.cfl (now " << n.cfl << ")";
    if (n.time_step == cases::TimeStepMethod::cfl) out << " or numerics.time_step = \"eigenvalue\"";
  }
  return out.str();
}

double owned_volume(const Simulation& sim) {
  const auto& volume = sim.geometry.cell_volume;
  double sum = 0;
  for (index_t i = 0; i < sim.domain->owned_count(); ++i) sum += volume[i];
  return sim.domain->sum(sum);
}

}  // namespace

HealthCheck::HealthCheck(const Simulation& sim)
    : sim_(sim), energy_(largest_velocity_scale(sim.config), owned_volume(sim)) {}

void HealthCheck::check(const time::StepReport& report, std::optional<double> kinetic_energy,
                        const CheckpointRecord& checkpoints) {
  const auto& f = *sim_.fields;
  const double energy = kinetic_energy.value_or(0);
  std::ostringstream why;
  if (!std::isfinite(energy) || !std::isfinite(report.poisson.relative_residual) || std::isnan(report.cfl)) {
    why << "the solution is no longer finite (kinetic energy " << energy << ", CFL " << report.cfl
        << ", Poisson residual " << report.poisson.relative_residual << ")";
    if (const auto at = locate_non_finite(sim_))
      why << ": " << at->field << " first at cell " << at->cell << " (centroid " << at->centroid.x << ", "
          << at->centroid.y << ", " << at->centroid.z << ")";
  } else if (!(f.dt > 0) || report.cfl > exploding_cfl) {
    why << "the CFL number exploded (" << report.cfl << " > " << exploding_cfl << ")";
  } else if (const std::string runaway = kinetic_energy ? energy_.record(f.step, energy) : ""; !runaway.empty()) {
    why << runaway;
  } else {
    return;
  }
  std::ostringstream message;
  message << "step " << f.step << ", t = " << f.time << ": " << why.str() << "; the run stops here, "
          << what_next(checkpoints, sim_.config.numerics, report.cfl);
  if (sim_.domain->distributed()) throw parallel::CollectiveError(message.str());
  throw Error(message.str());
}

}  // namespace miniapp::run
