#pragma once
#include <span>
#include <vector>

#include "core/vec3.hpp"
#include "miniapp/time/analytic_fields.hpp"

namespace miniapp::time {

// A plane channel: walls at y = wall_low and y = wall_high, periodic over length_x and length_z, in
// the units of the friction velocity u_τ and the viscosity ν (Re_τ = u_τ δ / ν, δ the half height).
struct ChannelBox {
  double wall_low = -1, wall_high = 1;
  double length_x = 1, length_z = 1;
  double friction_velocity = 1;
  double viscosity = 1;
};

// A start that becomes turbulent within a few δ/u_τ: the mean profile of a turbulent channel
// (Reichardt's law of the wall, U⁺ = ln(1 + κy⁺)/κ + 7.8 (1 − e^(−y⁺/11) − (y⁺/11) e^(−y⁺/3)), κ = 0.41)
// with streamwise streaks u' = a u_τ g(y⁺) cos(2π m z/L_z) and their spanwise meander
// w' = ½ a u_τ g(y⁺) sin(2π n x/L_x), g = (y⁺/30) e^(½(1 − (y⁺/30)²)) peaking at y⁺ = 30 near each wall.
// m and n are the whole numbers of wavelengths nearest L_z⁺/200 and L_x⁺/600 (at least 1), so the
// field is periodic; both perturbations are divergence-free. a = `streak_amplitude`.
HostVelocity turbulent_channel_start(std::span<const Vec3> points, const ChannelBox& box, double streak_amplitude);

// Reichardt's U⁺(y⁺), exposed for the tests.
double reichardt_velocity(double y_plus);

}  // namespace miniapp::time
