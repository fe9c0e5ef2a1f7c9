#pragma once
#include <array>

#include "core/vec3.hpp"
#include "operators/backend/array.hpp"

namespace miniapp::time {

// The state of the flow in executor memory (cells in the operators' order), plus the scalars that a
// restart needs. Everything a checkpoint stores is here.
struct FlowFields {
  FlowFields(const Executor& exec, index_t cells, index_t faces)
      : u{Vector(exec, cells), Vector(exec, cells), Vector(exec, cells)},
        u_old{Vector(exec, cells), Vector(exec, cells), Vector(exec, cells)},
        pressure(exec, cells), face_velocity(exec, faces), face_viscosity(exec, faces),
        eddy_viscosity(exec, cells) {}

  std::array<Vector, 3> u;      // uⁿ
  std::array<Vector, 3> u_old;  // uⁿ⁻¹ (Adams-Bashforth)
  Vector pressure;              // pⁿ (the next Poisson solve's initial guess)
  Vector face_velocity;         // u_s
  Vector face_viscosity;        // ν_s = ν + Π ν_t
  Vector eddy_viscosity;        // ν_t (cells)

  // Every vector above, for code that copies the whole state.
  std::array<Vector*, 10> vectors() {
    return {&u[0], &u[1], &u[2], &u_old[0], &u_old[1], &u_old[2], &pressure, &face_velocity, &face_viscosity,
            &eddy_viscosity};
  }

  double time = 0;
  double dt = 0;       // Δt of the next step
  double dt_old = 0;   // Δt of the last step (0 before the first: Euler)
  long step = 0;
  // With a held bulk velocity (FlowRateHold): the acceleration added to physics.body_force, which the
  // next step applies.
  Vec3 driving_force{0, 0, 0};
};

}  // namespace miniapp::time
