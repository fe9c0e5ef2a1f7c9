#include "miniapp/run/simulation.hpp"

#include <chrono>
#include <iomanip>
#include <ostream>

#include "miniapp/case/case_mesh.hpp"
#include "miniapp/case/case_validation.hpp"
#include "miniapp/run/memory_estimate.hpp"
#include "miniapp/time/analytic_fields.hpp"
#include "operators/kernels/vector_ops.hpp"
#include "solvers/aip.hpp"
#include "solvers/jacobi.hpp"

namespace miniapp::run {
namespace {

// Prints "  stage ....... 0.123 s" when the stage is done.
class StageTimer {
 public:
  StageTimer(std::ostream& log, const char* stage) : log_(log), stage_(stage), start_(clock::now()) {}
  ~StageTimer() {
    const double s = std::chrono::duration<double>(clock::now() - start_).count();
    log_ << "  " << std::left << std::setw(28) << stage_ << std::right << std::fixed << std::setprecision(3) << s
         << " s\n" << std::defaultfloat;
  }

 private:
  using clock = std::chrono::steady_clock;
  std::ostream& log_;
  const char* stage_;
  clock::time_point start_;
};

fv::FlowBoundaries flow_boundaries(const cases::CaseConfig& config, const mesh::Mesh& mesh) {
  fv::FlowBoundaries b;
  for (const auto& patch : mesh.patches) {
    const auto* bc = config.find_boundary(patch.name);
    // validate_boundaries has guaranteed one condition per patch.
    b.by_patch.push_back({bc->type, bc->velocity});
  }
  return b;
}

Executor make_executor(const cases::CaseConfig& config) {
  return Executor::from_name(std::string(cases::name(config.numerics.backend)));
}

index_t slice_height(const cases::CaseConfig& config, const Executor& exec) {
  return config.numerics.slice_height > 0 ? config.numerics.slice_height : exec.default_slice_height();
}

std::unique_ptr<Preconditioner> make_preconditioner(const cases::CaseConfig& config, const Executor& exec,
                                                    const CsrMatrix& pressure_matrix, index_t slices) {
  using P = cases::Preconditioner;
  switch (config.numerics.preconditioner) {
    case P::jacobi: return std::make_unique<Jacobi>(exec, pressure_matrix);
    case P::aip1: return std::make_unique<Aip>(exec, pressure_matrix, 1, slices);
    case P::aip2: return std::make_unique<Aip>(exec, pressure_matrix, 2, slices);
    case P::aip3: return std::make_unique<Aip>(exec, pressure_matrix, 3, slices);
  }
  throw Error("unknown preconditioner");
}

time::FlowParameters flow_parameters(const cases::CaseConfig& c) {
  time::FlowParameters p;
  p.viscosity = c.physics.nu;
  p.les = c.physics.les;
  p.les_constant = c.physics.les_constant;
  p.cfl = c.numerics.cfl;
  p.fixed_dt = c.numerics.dt.value_or(0.0);
  p.max_dt = c.numerics.max_dt.value_or(0.0);
  p.poisson.tolerance = c.numerics.poisson_tolerance;
  p.poisson.max_iterations = c.numerics.poisson_max_iterations;
  return p;
}

time::HostVelocity initial_velocity(const Simulation& sim) {
  const auto& init = sim.config.initial;
  const auto& points = sim.geometry.cell_centroid;
  using T = cases::InitialType;
  switch (init.type) {
    case T::rest: return time::uniform_velocity(points.size(), {0, 0, 0});
    case T::uniform: return time::uniform_velocity(points.size(), init.velocity);
    case T::taylor_green_2d: return time::taylor_green_2d(points, init.amplitude, sim.config.physics.nu, 0.0);
    case T::taylor_green_3d: return time::taylor_green_3d(points, init.amplitude);
  }
  throw Error("unknown initial condition");
}

CsrMatrix negated(CsrMatrix a) {
  for (auto& v : a.val) v = -v;
  return a;
}

// numerics.poisson: PCG with the case's preconditioner, or the FFT path along a periodic z.
std::unique_ptr<time::PressureSolver> make_pressure_solver(const Simulation& sim, index_t slices, bool singular) {
  const auto& c = sim.config;
  PcgOptions options = flow_parameters(c).poisson;
  options.singular = singular;
  if (c.numerics.poisson == cases::PoissonSolver::fft)
    return std::make_unique<time::FftPressureSolver>(sim.exec, sim.mesh, sim.geometry, sim.host_operators.laplacian,
                                                     sim.host_operators.cell_order, options);
  auto preconditioner = make_preconditioner(c, sim.exec, negated(sim.host_operators.laplacian), slices);
  return std::make_unique<time::PcgPressureSolver>(sim.exec, sim.operators->pressure_matrix, std::move(preconditioner),
                                                   options);
}

}  // namespace

std::vector<double> to_mesh_order(const Simulation& sim, const Vector& field) {
  return unpermute_vector(field.to_host(), sim.host_operators.cell_order);
}

void from_mesh_order(const Simulation& sim, const std::vector<double>& field, Vector& out) {
  out.copy_from_host(permute_vector(field, sim.host_operators.cell_order));
}

Simulation set_up_simulation(cases::CaseConfig config, const std::string& case_path, std::ostream& log) {
  Simulation sim;
  sim.config = std::move(config);
  sim.case_path = case_path;
  const auto& c = sim.config;
  // The backend first: a missing device is reported before any work is done.
  sim.exec = make_executor(c);
  if (c.numerics.poisson == cases::PoissonSolver::fft) time::require_fft_backend(sim.exec);
  {
    StageTimer t(log, "mesh");
    sim.mesh = cases::make_case_mesh(c.mesh);
    cases::validate_boundaries(c, sim.mesh, case_path);
    sim.geometry = mesh::compute_geometry(sim.mesh);
  }
  const fv::FlowBoundaries boundaries = flow_boundaries(c, sim.mesh);
  const bool les = c.physics.les != LesModel::none;
  {
    StageTimer t(log, "operators (host)");
    sim.host_operators = fv::assemble_flow_operators(sim.mesh, sim.geometry, boundaries);
  }
  const index_t slices = slice_height(c, sim.exec);
  // Fails here, before the first upload, when the mesh does not fit on the device.
  check_memory(estimate_memory(c, sim.mesh, sim.host_operators, slices), sim.cells(), sim.exec, log);
  {
    StageTimer t(log, "operators (upload)");
    sim.operators = std::make_unique<time::DeviceOperators>(sim.exec, sim.mesh, sim.geometry, sim.host_operators,
                                                            slices, c.physics.nu, les, c.physics.body_force);
  }
  std::unique_ptr<time::PressureSolver> pressure_solver;
  {
    StageTimer t(log, "pressure solver");
    // Without an outlet the pressure is defined up to a constant: the singular system.
    pressure_solver = make_pressure_solver(sim, slices, !boundaries.has_pressure_outlet());
  }
  sim.scheme = std::make_unique<time::FractionalStep>(sim.exec, *sim.operators, flow_parameters(c),
                                                      std::move(pressure_solver));
  sim.fields = std::make_unique<time::FlowFields>(sim.exec, sim.mesh.cell_count(), sim.mesh.face_count());
  const auto u0 = initial_velocity(sim);
  for (int d = 0; d < 3; ++d) {
    from_mesh_order(sim, u0[d], sim.fields->u[d]);
    from_mesh_order(sim, u0[d], sim.fields->u_old[d]);
  }
  fill(sim.exec, 0.0, sim.fields->pressure);
  sim.scheme->initialise(*sim.fields);
  return sim;
}

}  // namespace miniapp::run
