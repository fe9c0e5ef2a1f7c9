#include "miniapp/time/analytic_fields.hpp"

#include <cmath>

namespace miniapp::time {

HostVelocity taylor_green_2d(const std::vector<Vec3>& points, double amplitude, double viscosity, double time) {
  const double decay = amplitude * std::exp(-2.0 * viscosity * time);
  HostVelocity u;
  for (auto& c : u) c.resize(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto& x = points[i];
    u[0][i] = decay * std::sin(x.x) * std::cos(x.y);
    u[1][i] = -decay * std::cos(x.x) * std::sin(x.y);
    u[2][i] = 0.0;
  }
  return u;
}

std::vector<double> taylor_green_2d_pressure(const std::vector<Vec3>& points, double amplitude, double viscosity,
                                             double time) {
  const double scale = 0.25 * amplitude * amplitude * std::exp(-4.0 * viscosity * time);
  std::vector<double> p(points.size());
  for (std::size_t i = 0; i < points.size(); ++i)
    p[i] = scale * (std::cos(2.0 * points[i].x) + std::cos(2.0 * points[i].y));
  return p;
}

HostVelocity taylor_green_3d(const std::vector<Vec3>& points, double amplitude) {
  HostVelocity u;
  for (auto& c : u) c.resize(points.size());
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto& x = points[i];
    u[0][i] = amplitude * std::sin(x.x) * std::cos(x.y) * std::cos(x.z);
    u[1][i] = -amplitude * std::cos(x.x) * std::sin(x.y) * std::cos(x.z);
    u[2][i] = 0.0;
  }
  return u;
}

HostVelocity uniform_velocity(std::size_t count, const Vec3& velocity) {
  HostVelocity u;
  for (int d = 0; d < 3; ++d) u[d].assign(count, velocity[d]);
  return u;
}

}  // namespace miniapp::time
