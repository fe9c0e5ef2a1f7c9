#pragma once
#include <array>
#include <optional>
#include <vector>

#include "miniapp/time/convection_diffusion_operator.hpp"
#include "operators/backend/device_matrix.hpp"
#include "operators/fv/flow_operators.hpp"

namespace miniapp::time {

// The flow operators in executor memory, in execution formats (sliced ELLPACK, thesis §2.4), uploaded
// once; the momentum operator R = C(u_s) + D(ν_s) with its coefficient maps is
// ConvectionDiffusionOperator.
struct DeviceOperators {
  // `viscosity`: the molecular ν; `les`: whether ν_s changes every step; `body_force`: a constant
  // acceleration (e.g. the mean pressure gradient driving a channel). Each host array of `ops` that
  // only the upload reads is released once uploaded, so that its memory, already faulted in, takes
  // the next uploads' arrays: what remains is cell_order, boundaries, volume, inverse_volume and the
  // Laplacian (the pressure solvers' matrix). |M|, G and Π are made here, each just before its upload
  // (fv::cell_gradient_matrix); |M| and G, of M's and M Γ's patterns, and the viscous rate where it
  // has M's, are stored as values read with those matrices' structure. The time of each part goes to
  // `profile` when given.
  // `uploaded_minus_laplacian`: −L already in executor memory with slice height `slice_height` (laid
  // out there from the copy AMG's device set-up read), taken as the pressure matrix as it is; else −L
  // is uploaded here. `host_cell_gradient`, when given, receives G on the host (probes interpolate
  // with its rows).
  DeviceOperators(const Executor& exec, const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry,
                  fv::FlowOperators& ops, index_t slice_height, double viscosity, bool les, const Vec3& body_force,
                  StageProfile* profile = nullptr,
                  std::optional<DeviceSell> uploaded_minus_laplacian = std::nullopt,
                  std::array<CsrMatrix, 3>* host_cell_gradient = nullptr);

  Vector volume, inverse_volume;
  DeviceSell divergence;                       // M
  DeviceSell face_gradient;                    // Gs
  DeviceSell pressure_matrix;                  // −L (symmetric positive semi-definite)
  DeviceSell cell_to_face;                     // Γc→s, its components' columns interleaved
  std::array<DeviceSell, 3> cell_divergence;   // M Γc→s
  std::array<DeviceSell, 3> cell_gradient;     // G, on M Γ_d's structure where its pattern is M Γ_d's
  DeviceSell face_interpolation;               // Π
  DeviceSell flux_magnitude_sum;               // |M|, on M's structure
  DeviceSell viscous_rate;                     // Σ A/δn per cell from face values (on M's structure where
                                               // its pattern is M's)
  // Σ A_f (|u_b| − |u_b · n_f|) over each cell's wall and inlet faces (time_step_control.hpp), and
  // whether any is non-zero (a moving wall, an oblique inlet).
  Vector boundary_speed_flux;
  bool has_moving_boundaries = false;

  ConvectionDiffusionOperator momentum;  // R = C(u_s) + D(ν_s); values rewritten every step

  Vector boundary_face_velocity;  // u_bc · n on wall/inlet faces
  Vector boundary_divergence;     // M u_bc (cells)
  // Constant momentum sources per component, s in uᵖ = uⁿ − Δt Ω⁻¹ (R w + s): the inlet convective
  // flux, the body force (−Ω f), and without LES (ν_s constant) the wall/inlet diffusion source.
  std::array<Vector, 3> constant_source;
  // With LES and moving walls or inlets: the diffusion source per unit ν_s (cells × faces), applied
  // to ν_s every step. Empty otherwise.
  std::vector<DeviceSell> viscous_source;
  bool has_sources = false;  // any non-zero source above
};

}  // namespace miniapp::time
