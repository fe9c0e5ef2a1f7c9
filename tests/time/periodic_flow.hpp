#pragma once
// The fractional-step integrator on a fully periodic box of any cell type, set up directly from the
// time layer (no case file): the harness of the Taylor-Green and energy-conservation tests.
#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <numbers>
#include <numeric>
#include <string>
#include <vector>

#include "mesh/generators.hpp"
#include "mesh/geometry.hpp"
#include "mesh/mesh_builder.hpp"
#include "miniapp/time/analytic_fields.hpp"
#include "miniapp/time/flow_diagnostics.hpp"
#include "miniapp/time/fractional_step.hpp"
#include "miniapp/time/pressure_solver.hpp"
#include "operators/kernels/vector_ops.hpp"
#include "solvers/aip.hpp"

namespace miniapp::time::test {

inline constexpr double two_pi = 2.0 * std::numbers::pi;

enum class CellShape { hex, tet, prism };

inline const char* name(CellShape s) { return s == CellShape::hex ? "hex" : s == CellShape::tet ? "tet" : "prism"; }

// [0, 2π]² × [0, 2π/n], one cell thick, periodic in x, y and z: n × n hexahedra, or n × n × 2
// triangles (alternating diagonals) extruded into one layer of prisms; or [0, 2π]² × [0, 4π/n], two
// cells thick, each cell split into tetrahedra (two layers, so that their split alternates along z as
// it does along x and y: one layer would be its own mirror-less neighbour across the periodic z side).
// The prism generator of the case files cannot glue x and y, so the prisms are built here.
inline mesh::Mesh periodic_slab(CellShape shape, index_t n) {
  const double h = two_pi / static_cast<double>(n);
  if (shape != CellShape::prism) {
    const index_t layers = shape == CellShape::tet ? 2 : 1;
    const mesh::BoxSpec box{{n, n, layers}, {0, 0, 0}, {two_pi, two_pi, layers * h}, {0, 0, 0}, {true, true, true}};
    return shape == CellShape::hex ? mesh::make_hex_box(box) : mesh::make_tet_box(box);
  }
  const mesh::Mesh2d base = mesh::make_tri_rect({{n, n}, {0, 0}, {two_pi, two_pi}, {0, 0}});
  const auto n2 = static_cast<index_t>(base.nodes.size());
  mesh::CellSoup soup;
  for (double z : {0.0, h})
    for (const auto& p : base.nodes) soup.nodes.push_back({p[0], p[1], z});
  for (const auto& patch : base.patch_names) soup.add_patch(patch);
  const index_t zmin = soup.add_patch("zmin"), zmax = soup.add_patch("zmax");
  for (index_t c = 0; c < base.cell_count(); ++c) {
    const index_t* v = &base.cell_nodes[base.cell_node_offsets[c]];  // triangles, counter-clockwise
    soup.add_cell(mesh::CellType::prism, {v[0], v[1], v[2], v[0] + n2, v[1] + n2, v[2] + n2});
    soup.add_boundary_face(zmin, {v[0], v[1], v[2]});
    soup.add_boundary_face(zmax, {v[0] + n2, v[1] + n2, v[2] + n2});
  }
  for (std::size_t e = 0; e < base.boundary_edges.size(); ++e) {
    const auto [a, b] = base.boundary_edges[e];
    soup.add_boundary_face(base.boundary_edge_patch[e], {a, b, b + n2, a + n2});
  }
  return mesh::build_mesh(soup,
                          {{"xmin", "xmax", {two_pi, 0, 0}}, {"ymin", "ymax", {0, two_pi, 0}}, {"zmin", "zmax", {0, 0, h}}},
                          "periodic prism slab");
}

// The 2D Taylor-Green vortex (amplitude 1) integrated with a fixed Δt by FractionalStep on `mesh`.
class PeriodicFlow {
 public:
  // max_kappa > ½: the eigenvalue controller chooses the κ-scheme's κ each step (time_step_control.hpp),
  // the step staying dt.
  PeriodicFlow(mesh::Mesh m, double viscosity, double dt, double poisson_tolerance = 1e-10,
               double max_kappa = adams_bashforth_kappa)
      : mesh_(std::move(m)), geometry_(mesh::compute_geometry(mesh_)), viscosity_(viscosity) {
    ops_ = fv::assemble_flow_operators(mesh_, geometry_, fv::FlowBoundaries{});
    device_ = std::make_unique<DeviceOperators>(exec_, mesh_, geometry_, ops_, 8, viscosity, false, Vec3{0, 0, 0});
    CsrMatrix pressure = ops_.laplacian;
    for (auto& v : pressure.val) v = -v;
    FlowParameters params;
    params.viscosity = viscosity;
    params.time_step.fixed_dt = dt;
    if (max_kappa > adams_bashforth_kappa) params.time_step = {TimeStepMethod::eigenvalue, 1.0, dt, 0, max_kappa};
    PcgOptions poisson;
    poisson.tolerance = poisson_tolerance;
    poisson.singular = true;  // periodic: the pressure is defined up to a constant
    domain_ = std::make_unique<parallel::Subdomain>(mesh_.cell_count());
    scheme_ = std::make_unique<FractionalStep>(
        exec_, *device_, *domain_, params,
        std::make_unique<PcgPressureSolver>(exec_, device_->pressure_matrix, std::make_unique<Aip>(exec_, pressure, 1, 8),
                                            poisson));
    fields_ = std::make_unique<FlowFields>(exec_, mesh_.cell_count(), mesh_.face_count());
    fill(exec_, 0.0, fields_->pressure);  // the first Poisson solve's initial guess, as a run sets it
    const HostVelocity u0 = exact_velocity(0.0);
    for (int d = 0; d < 3; ++d) {
      fields_->u[d] = Vector::from_host(exec_, u0[d]);
      fields_->u_old[d] = Vector::from_host(exec_, u0[d]);
    }
    scheme_->initialise(*fields_);
    diagnostics_ = std::make_unique<FlowDiagnostics>(exec_, *device_, *domain_, viscosity);
  }

  void advance(long steps) {
    for (long s = 0; s < steps; ++s) scheme_->advance(*fields_);
  }

  double time() const { return fields_->time; }
  // uⁿ on the host, the operators' cell order.
  HostVelocity velocity() const { return {fields_->u[0].to_host(), fields_->u[1].to_host(), fields_->u[2].to_host()}; }
  double kinetic_energy() { return diagnostics_->evaluate(*fields_).kinetic_energy; }
  FlowIntegrals integrals() { return diagnostics_->evaluate(*fields_); }
  // The same by a new FlowDiagnostics, which remembers no earlier evaluation.
  FlowIntegrals integrals_afresh(bool with_gradient_terms = true) const {
    return FlowDiagnostics(exec_, *device_, *domain_, viscosity_).evaluate(*fields_, with_gradient_terms);
  }
  const Executor& executor() const { return exec_; }
  // ½ Σ Ω |ω|² on the host from the full velocity gradient (the one of the VTK vorticity).
  double enstrophy_from_gradient() {
    std::array<std::vector<double>, 9> h;
    diagnostics_->for_each_gradient_column(*fields_, [&](int b, const FlowDiagnostics::GradientColumn& column) {
      for (int a = 0; a < 3; ++a) h[3 * a + b] = column[a]->to_host();
    });
    const std::vector<double> volume = device_->volume.to_host();
    double sum = 0;
    for (std::size_t i = 0; i < volume.size(); ++i) {
      const double wx = h[7][i] - h[5][i], wy = h[2][i] - h[6][i], wz = h[3][i] - h[1][i];
      sum += 0.5 * volume[i] * (wx * wx + wy * wy + wz * wz);
    }
    return sum;
  }

  // Relative errors against the exact solution now, ‖f − f_exact‖ / ‖f_exact‖ in the volume-weighted
  // L2 norm at the cell centroids: of the velocity and of the pressure (each pressure less its mean: a
  // periodic pressure is defined up to a constant), then of both once averaged over each square of the
  // slab (the cells one square was split into), which leaves out grid-scale modes between those cells.
  struct Errors {
    double velocity, pressure, velocity_square_means, pressure_square_means;
  };
  Errors errors() const {
    const double t = fields_->time;
    const HostVelocity u = velocity(), u_exact = exact_velocity(t);
    std::vector<double> p = fields_->pressure.to_host();
    std::vector<double> p_exact =
        permute_vector(taylor_green_2d_pressure(geometry_.cell_centroid, 1.0, viscosity_, t), ops_.cell_order);
    remove_mean(p);
    remove_mean(p_exact);
    std::vector<index_t> each_cell(ops_.volume.size());
    std::iota(each_cell.begin(), each_cell.end(), 0);
    const std::vector<index_t> square = square_of_cells();
    const std::vector<const std::vector<double>*> velocity_fields{&u[0], &u[1], &u[2]},
        exact_velocity_fields{&u_exact[0], &u_exact[1], &u_exact[2]}, pressure_field{&p},
        exact_pressure_field{&p_exact};
    return {relative_error(velocity_fields, exact_velocity_fields, each_cell),
            relative_error(pressure_field, exact_pressure_field, each_cell),
            relative_error(velocity_fields, exact_velocity_fields, square),
            relative_error(pressure_field, exact_pressure_field, square)};
  }

 private:
  void remove_mean(std::vector<double>& f) const {
    double sum = 0, volume = 0;
    for (std::size_t i = 0; i < f.size(); ++i) sum += ops_.volume[i] * f[i], volume += ops_.volume[i];
    for (double& v : f) v -= sum / volume;
  }

  // The square of the slab (side: the thickness of one of its layers) that holds each cell's centroid,
  // in the operators' cell order.
  std::vector<index_t> square_of_cells() const {
    std::vector<double> z;
    for (const Vec3& node : mesh_.nodes) z.push_back(node.z);
    std::sort(z.begin(), z.end());
    z.erase(std::unique(z.begin(), z.end(), [](double a, double b) { return b - a < 1e-12; }), z.end());
    const double side = (z.back() - z.front()) / static_cast<double>(z.size() - 1);
    const auto n = static_cast<index_t>(std::lround(two_pi / side));
    std::vector<double> x(geometry_.cell_centroid.size()), y(x.size());
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = geometry_.cell_centroid[i].x, y[i] = geometry_.cell_centroid[i].y;
    x = permute_vector(x, ops_.cell_order);
    y = permute_vector(y, ops_.cell_order);
    std::vector<index_t> square(x.size());
    for (std::size_t i = 0; i < x.size(); ++i)
      square[i] = static_cast<index_t>(std::floor(x[i] / side)) * n + static_cast<index_t>(std::floor(y[i] / side));
    return square;
  }

  // The relative error of the fields' volume-weighted means over the groups of cells (group[i]: cell
  // i's), summed over the fields (a vector's components).
  double relative_error(const std::vector<const std::vector<double>*>& fields,
                        const std::vector<const std::vector<double>*>& exact, const std::vector<index_t>& group) const {
    const std::size_t groups = static_cast<std::size_t>(*std::max_element(group.begin(), group.end())) + 1;
    std::vector<double> volume(groups);
    for (std::size_t i = 0; i < group.size(); ++i) volume[group[i]] += ops_.volume[i];
    double error = 0, norm = 0;
    for (std::size_t f = 0; f < fields.size(); ++f) {
      std::vector<double> mean(groups), exact_mean(groups);
      for (std::size_t i = 0; i < group.size(); ++i) {
        mean[group[i]] += ops_.volume[i] * (*fields[f])[i];
        exact_mean[group[i]] += ops_.volume[i] * (*exact[f])[i];
      }
      for (std::size_t g = 0; g < groups; ++g) {
        const double computed = mean[g] / volume[g], expected = exact_mean[g] / volume[g];
        error += volume[g] * (computed - expected) * (computed - expected);
        norm += volume[g] * expected * expected;
      }
    }
    return std::sqrt(error / norm);
  }

  // The exact solution at the centroids, in the operators' cell order.
  HostVelocity exact_velocity(double t) const {
    HostVelocity u = taylor_green_2d(geometry_.cell_centroid, 1.0, viscosity_, t);
    for (auto& component : u) component = permute_vector(component, ops_.cell_order);
    return u;
  }

  mesh::Mesh mesh_;
  mesh::MeshGeometry geometry_;
  double viscosity_;
  fv::FlowOperators ops_;
  Executor exec_ = Executor::cpu();
  std::unique_ptr<DeviceOperators> device_;
  std::unique_ptr<parallel::Subdomain> domain_;
  std::unique_ptr<FractionalStep> scheme_;
  std::unique_ptr<FlowFields> fields_;
  std::unique_ptr<FlowDiagnostics> diagnostics_;
};

}  // namespace miniapp::time::test
