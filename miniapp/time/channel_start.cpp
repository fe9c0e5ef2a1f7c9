#include "miniapp/time/channel_start.hpp"

#include <algorithm>
#include <cmath>
#include <span>

namespace miniapp::time {
namespace {

constexpr double two_pi = 6.283185307179586;

// The nearest whole number of wavelengths of `wavelength` in `length`, at least one.
double wave_count(double length, double wavelength) { return std::max(1.0, std::round(length / wavelength)); }

// The wall-normal shape of the perturbations: 1 at y⁺ = 30, decaying towards the centre.
double streak_shape(double y_plus) {
  const double s = y_plus / 30.0;
  return s * std::exp(0.5 * (1.0 - s * s));
}

}  // namespace

double reichardt_velocity(double y_plus) {
  constexpr double kappa = 0.41;
  return std::log1p(kappa * y_plus) / kappa +
         7.8 * (1.0 - std::exp(-y_plus / 11.0) - (y_plus / 11.0) * std::exp(-y_plus / 3.0));
}

HostVelocity turbulent_channel_start(std::span<const Vec3> points, const ChannelBox& box, double streak_amplitude) {
  const double wall_unit = box.viscosity / box.friction_velocity;
  const double kz = two_pi * wave_count(box.length_z / wall_unit, 200.0) / box.length_z;
  const double kx = two_pi * wave_count(box.length_x / wall_unit, 600.0) / box.length_x;
  const double a = streak_amplitude * box.friction_velocity;
  HostVelocity u;
  for (auto& c : u) c.resize(points.size());
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < points.size(); ++i) {
    const Vec3& x = points[i];
    const double wall_distance = std::max(0.0, std::min(x.y - box.wall_low, box.wall_high - x.y));
    const double y_plus = wall_distance / wall_unit;
    const double g = streak_shape(y_plus);
    u[0][i] = box.friction_velocity * reichardt_velocity(y_plus) + a * g * std::cos(kz * x.z);
    u[1][i] = 0.0;
    u[2][i] = 0.5 * a * g * std::sin(kx * x.x);
  }
  return u;
}

}  // namespace miniapp::time
