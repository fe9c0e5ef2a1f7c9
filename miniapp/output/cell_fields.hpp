#pragma once
#include <array>
#include <vector>

namespace miniapp::output {

// The flow fields of one output step on the host, every array in mesh cell order
// (size = mesh.cell_count()). The time loop copies them from executor memory at output steps.
struct CellFields {
  std::array<std::vector<double>, 3> velocity;
  std::vector<double> pressure;
  std::vector<double> eddy_viscosity;
  std::vector<double> vorticity_magnitude;  // |ω|
  std::vector<double> q_criterion;          // Q = ½(|Ω|² − |S|²)
  // Time averages of [statistics] (zeros before the first sample).
  std::array<std::vector<double>, 3> mean_velocity;
  std::vector<double> mean_pressure;
  std::vector<double> mean_eddy_viscosity;
  std::array<std::vector<double>, 6> reynolds_stress;  // ⟨u_i' u_j'⟩: xx, yy, zz, xy, yz, xz (VTK's order)
};

// Which cell arrays a VTK file holds; arrays not selected may be left empty in CellFields.
struct FieldSelection {
  bool velocity = true;
  bool pressure = true;
  bool eddy_viscosity = true;
  bool vorticity_magnitude = true;
  bool q_criterion = true;
  bool statistics = false;  // mean_velocity, mean_pressure, mean_eddy_viscosity, reynolds_stress
};

// Vorticity magnitude and Q-criterion of one velocity gradient.
struct VelocityInvariants {
  double vorticity_magnitude = 0;
  double q_criterion = 0;
};

// For G with G[3 i + j] = ∂u_i/∂x_j: ω = curl u, S = ½(G + Gᵀ), Ω = ½(G − Gᵀ);
// returns |ω| and Q = ½(|Ω|² − |S|²) (Frobenius norms).
VelocityInvariants velocity_invariants(const std::array<double, 9>& gradient);

// Fills fields.vorticity_magnitude and fields.q_criterion cell by cell from the nine gradient
// components gradient[3 i + j] = ∂u_i/∂x_j (all of the same size, the cell count).
void compute_velocity_invariants(const std::array<std::vector<double>, 9>& gradient, CellFields& fields);

}  // namespace miniapp::output
