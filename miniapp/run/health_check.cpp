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

std::string what_is_left(const CheckpointRecord& c) {
  if (c.last_step)
    return "the last checkpoint (step " + std::to_string(*c.last_step) + ") in " + c.directory + " is left intact";
  std::ostringstream out;
  out << "no checkpoint has been written (";
  if (std::isfinite(c.next_time)) out << "the first was due at t = " << c.next_time << ")";
  else out << "output.checkpoint_interval = 0 writes one only at the end)";
  return out.str();
}

}  // namespace

void check_health(const Simulation& sim, const time::StepReport& report, double kinetic_energy,
                  const CheckpointRecord& checkpoints) {
  const auto& f = *sim.fields;
  std::ostringstream why;
  if (!std::isfinite(kinetic_energy) || !std::isfinite(report.poisson.relative_residual) || std::isnan(report.cfl)) {
    why << "the solution is no longer finite (kinetic energy " << kinetic_energy << ", CFL " << report.cfl
        << ", Poisson residual " << report.poisson.relative_residual << ")";
    if (const auto at = locate_non_finite(sim))
      why << ": " << at->field << " first at cell " << at->cell << " (centroid " << at->centroid.x << ", "
          << at->centroid.y << ", " << at->centroid.z << ")";
  } else if (!(f.dt > 0) || report.cfl > exploding_cfl) {
    why << "the CFL number exploded (" << report.cfl << " > " << exploding_cfl << ")";
  } else {
    return;
  }
  std::ostringstream message;
  message << "step " << f.step << ", t = " << f.time << ": " << why.str() << "; the run stops here, "
          << what_is_left(checkpoints);
  if (sim.domain->distributed()) throw parallel::CollectiveError(message.str());
  throw Error(message.str());
}

}  // namespace miniapp::run
