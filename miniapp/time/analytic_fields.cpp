#include "miniapp/time/analytic_fields.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <span>

namespace miniapp::time {

HostVelocity taylor_green_2d(std::span<const Vec3> points, double amplitude, double viscosity, double time) {
  const double decay = amplitude * std::exp(-2.0 * viscosity * time);
  HostVelocity u;
  for (auto& c : u) c.resize(points.size());
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto& x = points[i];
    u[0][i] = decay * std::sin(x.x) * std::cos(x.y);
    u[1][i] = -decay * std::cos(x.x) * std::sin(x.y);
    u[2][i] = 0.0;
  }
  return u;
}

std::vector<double> taylor_green_2d_pressure(std::span<const Vec3> points, double amplitude, double viscosity,
                                             double time) {
  const double scale = 0.25 * amplitude * amplitude * std::exp(-4.0 * viscosity * time);
  std::vector<double> p(points.size());
#pragma omp parallel for schedule(static)
  for (std::size_t i = 0; i < points.size(); ++i)
    p[i] = scale * (std::cos(2.0 * points[i].x) + std::cos(2.0 * points[i].y));
  return p;
}

HostVelocity taylor_green_3d(std::span<const Vec3> points, double amplitude) {
  HostVelocity u;
  for (auto& c : u) c.resize(points.size());
#pragma omp parallel for schedule(static)
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

void add_perturbation(HostVelocity& u, std::span<const Vec3> points, double amplitude) {
  constexpr int waves = 8;
  // A fixed Mersenne Twister seed: the same waves on every machine and rank.
  std::mt19937 gen(20261122u);
  std::uniform_real_distribution<double> unit(-1.0, 1.0), length(0.3, 1.5), phase(0.0, 6.283185307179586);
  for (int d = 0; d < 3; ++d) {
    std::array<Vec3, waves> k;
    std::array<double, waves> phi;
    for (int w = 0; w < waves; ++w) {
      Vec3 dir{unit(gen), unit(gen), unit(gen)};
      k[w] = dir * (6.283185307179586 / (length(gen) * std::max(norm(dir), 1e-3)));
      phi[w] = phase(gen);
    }
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < points.size(); ++i) {
      double sum = 0;
      for (int w = 0; w < waves; ++w) sum += std::sin(dot(k[w], points[i]) + phi[w]);
      u[d][i] += amplitude * sum / waves;
    }
  }
}

}  // namespace miniapp::time
