#pragma once
// Per-face math of the wall_shear kernel (operators/kernels/flow_kernels.hpp), compiled for both
// backends from this one source, so that both evaluate the same expressions in the same order.
#include <cmath>
#include <cstdint>

#include "operators/backend/host_device.hpp"

namespace miniapp::wall {

// The arrays of the wall faces, by value so that a CUDA kernel can take them: the velocity sampled in
// the cell beside each face, the face's unit normal, the wall's velocity and the centroid's distance.
struct FacePointers {
  const double* velocity[3];
  const double* normal[3];
  const double* wall_velocity[3];
  const double* distance;
};

struct Shear {
  double tau, yplus;
};

// du = scale u − w, u_t = du − (du·n) n, τ = ν |u_t| / d, y⁺ = d sqrt(τ) / ν.
MINIAPP_HOST_DEVICE inline Shear shear_at(const FacePointers& f, std::int64_t i, double scale, double nu) {
  double du[3], t[3];
  for (int k = 0; k < 3; ++k) du[k] = scale * f.velocity[k][i] - f.wall_velocity[k][i];
  const double normal = du[0] * f.normal[0][i] + du[1] * f.normal[1][i] + du[2] * f.normal[2][i];
  for (int k = 0; k < 3; ++k) t[k] = du[k] - normal * f.normal[k][i];
  const double d = f.distance[i];
  const double tau = nu * std::sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]) / d;
  return {tau, d * std::sqrt(tau) / nu};
}

}  // namespace miniapp::wall
