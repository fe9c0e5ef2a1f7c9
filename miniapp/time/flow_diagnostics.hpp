#pragma once
#include <array>

#include "miniapp/time/device_operators.hpp"
#include "miniapp/time/flow_fields.hpp"
#include "parallel/subdomain.hpp"

namespace miniapp::time {

// Integral quantities of the flow, evaluated on the executor after a step (an observer: its kernels
// are not part of the step's cost).
struct FlowIntegrals {
  double kinetic_energy = 0;  // ½ Σ Ω |u|²
  double enstrophy = 0;       // ½ Σ Ω |ω|², ω = ∇ × u
  double dissipation = 0;     // Σ Ω (ν + ν_t) ∇u : ∇u
  double max_divergence = 0;  // max_i |(M u_s)_i| / Ω_i
};

class FlowDiagnostics {
 public:
  // Sums and maxima run over the owned cells of `domain`'s ranks (collective); `domain` must outlive
  // this object.
  FlowDiagnostics(const Executor& exec, const DeviceOperators& ops, const parallel::Subdomain& domain,
                  double viscosity);

  // Needs current halos of u (∇u reads them).
  FlowIntegrals evaluate(const FlowFields& fields);
  // The velocity gradient g_ab = ∂u_a/∂x_b (index 3a + b) of the last evaluate().
  const std::array<Vector, 9>& gradient() const { return gradient_; }

 private:
  Executor exec_;
  const DeviceOperators& ops_;
  const parallel::Subdomain& domain_;
  std::array<Vector, 9> gradient_;
  std::array<Vector, 3> weighted_;
  Vector weight_, molecular_viscosity_, cell_work_;
};

}  // namespace miniapp::time
