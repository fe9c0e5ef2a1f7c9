#pragma once
// Shared by the FFT Poisson tests: boundaries, random right-hand sides and norms.
#include <cmath>
#include <random>
#include <vector>

#include "mesh/mesh.hpp"
#include "operators/fv/laplacian.hpp"

namespace miniapp::test {

// Walls on every side patch, an outlet on xmax when asked.
inline fv::FlowBoundaries side_boundaries(const mesh::Mesh& m, bool outlet) {
  fv::FlowBoundaries b;
  for (const auto& patch : m.patches)
    b.by_patch.push_back({outlet && patch.name == "xmax" ? BoundaryKind::outlet : BoundaryKind::wall, {0, 0, 0}});
  return b;
}

// Uniform values in [−1, 1); with zero mean when `consistent` (a right-hand side of a singular −L).
inline std::vector<double> random_vector(std::size_t n, unsigned seed, bool consistent = false) {
  std::mt19937 engine(seed);
  std::uniform_real_distribution<double> value(-1, 1);
  std::vector<double> v(n);
  for (double& x : v) x = value(engine);
  if (consistent) {
    double mean = 0;
    for (double x : v) mean += x / static_cast<double>(n);
    for (double& x : v) x -= mean;
  }
  return v;
}

inline double norm(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x * x;
  return std::sqrt(s);
}

inline double distance(const std::vector<double>& a, const std::vector<double>& b) {
  double s = 0;
  for (std::size_t i = 0; i < a.size(); ++i) s += (a[i] - b[i]) * (a[i] - b[i]);
  return std::sqrt(s);
}

}  // namespace miniapp::test
