#pragma once
#include <array>
#include <span>
#include <vector>

#include "core/vec3.hpp"

namespace miniapp::time {

// A cell-centred velocity field on the host, one vector per component.
using HostVelocity = std::array<std::vector<double>, 3>;

// The 2D Taylor-Green vortex on [0, 2π]², an exact Navier-Stokes solution:
// u = a sin x cos y F(t), v = −a cos x sin y F(t), w = 0, F(t) = exp(−2 ν t).
HostVelocity taylor_green_2d(std::span<const Vec3> points, double amplitude, double viscosity, double time);
// Its pressure: p = a²/4 (cos 2x + cos 2y) F(t)².
std::vector<double> taylor_green_2d_pressure(std::span<const Vec3> points, double amplitude, double viscosity,
                                             double time);

// The 3D Taylor-Green initial condition: u = a sin x cos y cos z, v = −a cos x sin y cos z, w = 0.
HostVelocity taylor_green_3d(std::span<const Vec3> points, double amplitude);

// A uniform velocity at every point.
HostVelocity uniform_velocity(std::size_t count, const Vec3& velocity);

// Adds to u a perturbation of amplitude ≤ `amplitude` per component that looks random but is a fixed
// function of position (a sum of 8 plane waves with fixed wave vectors and phases, wavelengths 0.3 to
// 1.5 length units), so that it does not depend on cell numbering, rank count or backend: what seeds
// the transition of a turbulent start (initial.perturbation).
void add_perturbation(HostVelocity& u, std::span<const Vec3> points, double amplitude);

}  // namespace miniapp::time
