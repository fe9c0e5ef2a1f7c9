#pragma once
#include <memory>

#include "mesh/geometry.hpp"
#include "miniapp/case/case_config.hpp"
#include "miniapp/time/fractional_step.hpp"
#include "operators/fv/flow_operators.hpp"

namespace miniapp::run {

// A case made ready to integrate: mesh, operators on the executor, integrator and fields. Built by
// set_up_simulation in the order of the method: whole input checked first, then pre-processing on the
// host, then one upload.
struct Simulation {
  cases::CaseConfig config;
  std::string case_path;
  mesh::Mesh mesh;
  mesh::MeshGeometry geometry;
  fv::FlowOperators host_operators;
  Executor exec = Executor::cpu();
  std::unique_ptr<time::DeviceOperators> operators;
  std::unique_ptr<time::FractionalStep> scheme;
  std::unique_ptr<time::FlowFields> fields;

  index_t cells() const { return mesh.cell_count(); }
};

// Builds everything; prints one line per set-up stage with its time to `log`. The fields hold the
// initial condition (fields->step = 0) with consistent face velocity and first Δt.
Simulation set_up_simulation(cases::CaseConfig config, const std::string& case_path, std::ostream& log);

// Host copies of cell fields in mesh cell order (the executor holds them in the operators' order).
std::vector<double> to_mesh_order(const Simulation& sim, const Vector& field);
// A host cell field in mesh order → the operators' order on the executor.
void from_mesh_order(const Simulation& sim, const std::vector<double>& field, Vector& out);

}  // namespace miniapp::run
