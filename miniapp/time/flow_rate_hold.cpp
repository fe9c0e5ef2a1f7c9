#include "miniapp/time/flow_rate_hold.hpp"

#include <array>

#include "operators/kernels/spmv.hpp"
#include "operators/kernels/vector_ops.hpp"

namespace miniapp::time {

FlowRateHold::FlowRateHold(const Executor& exec, const DeviceOperators& ops, parallel::Subdomain& domain,
                           const Vec3& bulk_velocity)
    : exec_(exec), ops_(ops), domain_(domain), target_(norm(bulk_velocity)) {
  if (!(target_ > 0)) throw Error("flow-rate hold: the bulk velocity must be a non-zero vector");
  direction_ = bulk_velocity * (1.0 / target_);
  const index_t cells = ops.volume.size();
  ones_ = Vector(exec, cells);
  fill(exec, 1.0, ones_);
  volume_ = domain.dot(exec, ops.volume, ones_);
  // Γ applied to the uniform velocity `direction` gives direction · n on the faces where u_s follows
  // the cells.
  face_flux_ = Vector(exec, ops.cell_to_face.rows());
  std::array<Vector, 3> uniform;
  for (int d = 0; d < 3; ++d) {
    uniform[d] = Vector(exec, cells);
    fill(exec, direction_[d], uniform[d]);
  }
  spmv_interleaved(exec, ops.cell_to_face, std::array<const Vector*, 3>{&uniform[0], &uniform[1], &uniform[2]},
                   face_flux_);
}

double FlowRateHold::bulk_velocity(const FlowFields& f) const {
  double momentum = 0;
  for (int d = 0; d < 3; ++d)
    if (direction_[d] != 0) momentum += direction_[d] * domain_.dot(exec_, ops_.volume, f.u[d]);
  return momentum / volume_;
}

void FlowRateHold::hold(FlowFields& f, double projection_dt) {
  const double shift = target_ - bulk_velocity(f);
  for (int d = 0; d < 3; ++d)
    if (direction_[d] != 0) axpby(exec_, shift * direction_[d], ones_, 1.0, f.u[d]);
  axpby(exec_, shift, face_flux_, 1.0, f.face_velocity);
  if (projection_dt > 0) f.driving_force = f.driving_force + direction_ * (shift / projection_dt);
}

}  // namespace miniapp::time
