#include "miniapp/time/device_operators.hpp"

#include <optional>
#include <span>
#include <string>
#include <utility>

#include "miniapp/time/time_step_control.hpp"

namespace miniapp::time {
namespace {

bool any_non_zero(std::span<const double> v) {
  bool found = false;
#pragma omp parallel for schedule(static) reduction(|| : found)
  for (std::size_t i = 0; i < v.size(); ++i) found = found || v[i] != 0.0;
  return found;
}

template <class T>
void release(T& host) {
  host = T{};
}

constexpr const char* matrices_part = "sELL matrices";
constexpr const char* made_part = "derived matrices";  // |M|, G and Π, made here

DeviceSell upload(const Executor& exec, const CsrMatrix& a, index_t s, StageProfile* profile) {
  StageProfile::Part part(profile, matrices_part);
  return DeviceSell(exec, a, s);
}

DeviceSell upload_releasing(const Executor& exec, CsrMatrix& a, index_t s, StageProfile* profile) {
  DeviceSell uploaded = upload(exec, a, s, profile);
  release(a);
  return uploaded;
}

std::array<DeviceSell, 3> upload_three(const Executor& exec, const std::array<CsrMatrix, 3>& a, index_t s,
                                       StageProfile* profile) {
  return {upload(exec, a[0], s, profile), upload(exec, a[1], s, profile), upload(exec, a[2], s, profile)};
}

// `host` in executor memory: where `shared` (its pattern is `structure`'s), its values only, laid out
// as `structure`'s and read with `structure`'s slice offsets and columns; else whole.
DeviceSell upload_on_structure(const Executor& exec, const CsrMatrix& host, bool shared, const DeviceSell& structure,
                               index_t s, StageProfile* profile) {
  if (!shared) return upload(exec, host, s, profile);
  StageProfile::Part part(profile, matrices_part);
  return structure.with_values_of(host);
}

// G_d made from M Γ_d, which is then released (its upload came before), on M Γ_d's structure where
// their patterns are the same (M Γ_d's symmetric, fv::cell_gradient_matrix). G_d kept on the host in
// `kept` when given.
DeviceSell upload_cell_gradient(const Executor& exec, fv::FlowOperators& ops, const DeviceSell& cell_divergence, int d,
                                index_t s, StageProfile* profile, std::array<CsrMatrix, 3>* kept) {
  CsrMatrix g = timed_part(profile, made_part, [&] { return fv::cell_gradient_matrix(ops, d); });
  const bool shared = same_pattern(g, ops.cell_divergence[d]);
  release(ops.cell_divergence[d]);
  DeviceSell uploaded = upload_on_structure(exec, g, shared, cell_divergence, s, profile);
  if (kept) (*kept)[d] = std::move(g);
  return uploaded;
}

// −L as the solver's matrix: the copy given (already in executor memory, laid out in slices of `s`),
// checked to be −L's before anything else is uploaded, or −L uploaded here.
DeviceSell pressure_matrix_of(const Executor& exec, std::optional<DeviceSell> uploaded, const CsrMatrix& laplacian,
                              index_t s, StageProfile* profile) {
  if (!uploaded) return upload(exec, negated(laplacian), s, profile);
  if (uploaded->rows() != laplacian.rows || uploaded->nnz() != laplacian.nnz() || uploaded->view().slice_height != s)
    throw Error("DeviceOperators: the uploaded pressure matrix (" + std::to_string(uploaded->rows()) +
                " rows, slice height " + std::to_string(uploaded->view().slice_height) +
                ") is not −L of these operators in slices of " + std::to_string(s));
  return std::move(*uploaded);
}

}  // namespace

DeviceOperators::DeviceOperators(const Executor& exec, const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry,
                                 fv::FlowOperators& ops, index_t s, double viscosity, bool les,
                                 const Vec3& body_force, StageProfile* profile,
                                 std::optional<DeviceSell> uploaded_minus_laplacian,
                                 std::array<CsrMatrix, 3>* host_cell_gradient)
    : volume(Vector::from_host(exec, ops.volume)),
      inverse_volume(Vector::from_host(exec, ops.inverse_volume)),
      divergence(upload(exec, ops.divergence, s, profile)),
      face_gradient(upload_releasing(exec, ops.face_gradient, s, profile)),
      pressure_matrix(pressure_matrix_of(exec, std::move(uploaded_minus_laplacian), ops.laplacian, s, profile)),
      cell_to_face(upload_releasing(exec, ops.cell_to_face, s, profile)),
      cell_divergence(upload_three(exec, ops.cell_divergence, s, profile)),
      cell_gradient{upload_cell_gradient(exec, ops, cell_divergence[0], 0, s, profile, host_cell_gradient),
                    upload_cell_gradient(exec, ops, cell_divergence[1], 1, s, profile, host_cell_gradient),
                    upload_cell_gradient(exec, ops, cell_divergence[2], 2, s, profile, host_cell_gradient)},
      face_interpolation(upload(
          exec, timed_part(profile, made_part, [&] { return fv::face_interpolation_matrix(mesh, ops.cell_order); }),
          s, profile)),
      flux_magnitude_sum(upload_on_structure(
          exec, timed_part(profile, made_part, [&] { return absolute(ops.divergence); }), true, divergence, s, profile)),
      viscous_rate([&] {
        const bool shared = same_pattern(ops.viscous_rate, ops.divergence);
        DeviceSell uploaded = upload_on_structure(exec, ops.viscous_rate, shared, divergence, s, profile);
        release(ops.viscous_rate);
        return uploaded;
      }()),
      momentum(timed_part(profile, "momentum operator",
                          [&] { return ConvectionDiffusionOperator(exec, mesh, geometry, ops, s, viscosity, les); })),
      boundary_face_velocity(Vector::from_host(exec, ops.boundary_face_velocity)),
      boundary_divergence(Vector::from_host(exec, reference_spmv(ops.divergence, ops.boundary_face_velocity))) {
  StageProfile::Part part(profile, "sources");
  // The momentum operator and M u_bc were the last to read these.
  release(ops.divergence);
  release(ops.convective_interpolation);
  release(ops.boundary_face_velocity);
  const std::vector<double> speed_flux = cell_boundary_speed_flux(mesh, geometry, ops);
  boundary_speed_flux = Vector::from_host(exec, speed_flux);
  has_moving_boundaries = any_non_zero(speed_flux);
  // Without LES ν_s is the constant molecular viscosity: D's boundary source is computed once here;
  // with LES it is applied to ν_s every step.
  const std::vector<double> nu_faces(static_cast<std::size_t>(mesh.face_count()), viscosity);

  bool viscous_source_needed = false;
  for (int d = 0; d < 3; ++d) {
    const std::vector<double>& inlet = ops.inlet_convection_source[d];
    const std::vector<double> viscous = reference_spmv(ops.boundary_diffusion_source[d], nu_faces);
    viscous_source_needed = viscous_source_needed || any_non_zero(viscous);
    UninitializedVector<double> source(inlet.size());
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < source.size(); ++i) {
      double s = inlet[i];
      s -= ops.volume[i] * body_force[d];
      if (!les) s += viscous[i];
      source[i] = s;
    }
    has_sources = has_sources || any_non_zero(source);
    constant_source[d] = Vector::from_host(exec, source);
  }
  if (les && viscous_source_needed)
    for (int d = 0; d < 3; ++d) viscous_source.emplace_back(exec, ops.boundary_diffusion_source[d], s);
  for (int d = 0; d < 3; ++d) {
    release(ops.boundary_diffusion_source[d]);
    release(ops.inlet_convection_source[d]);
  }
}

}  // namespace miniapp::time
