#pragma once
#include "core/vec3.hpp"
#include "miniapp/time/device_operators.hpp"
#include "miniapp/time/flow_fields.hpp"
#include "parallel/subdomain.hpp"

namespace miniapp::time {

// Holds the bulk velocity U_b = Σ Ω u·e / Σ Ω of a flow without inlets and outlets (a periodic
// channel) at a set value U along e, as OpenFOAM's meanVelocityForce does: after each step the cell
// and face velocities are shifted by the uniform ΔU e = (U − U_b) e, which is divergence-free and
// leaves no flux through walls, and the driving acceleration along e grows by ΔU/β (β the step's
// projection Δt), which the next step's predictor applies on top of physics.body_force. Once the
// force has settled at the mean wall shear the shifts shrink to the step-to-step fluctuation.
class FlowRateHold {
 public:
  // `bulk_velocity`: U e (non-zero). `ops` and `domain` must outlive the hold.
  FlowRateHold(const Executor& exec, const DeviceOperators& ops, parallel::Subdomain& domain, const Vec3& bulk_velocity);

  // Shifts u and u_s so that U_b = U; with `projection_dt` > 0 (after a step) also adds ΔU/β to
  // fields.driving_force. A DOT per non-zero component of e and a host read.
  void hold(FlowFields& fields, double projection_dt);
  // U_b, the bulk velocity along e (collective).
  double bulk_velocity(const FlowFields& fields) const;
  const Vec3& direction() const { return direction_; }

 private:
  Executor exec_;
  const DeviceOperators& ops_;
  parallel::Subdomain& domain_;
  Vec3 direction_;   // e, unit
  double target_;    // U
  double volume_;    // Σ Ω over every rank's owned cells
  Vector ones_;      // cells: 1
  Vector face_flux_; // faces: e·n_f where Γ carries a cell value (interior, outlet faces), 0 elsewhere
};

}  // namespace miniapp::time
