#pragma once
// Shared by the FFT Poisson tests: boundaries, the 2D operator, random right-hand sides and norms.
#include <cmath>
#include <random>
#include <vector>

#include "mesh/generators.hpp"
#include "mesh/geometry.hpp"
#include "mesh/mesh.hpp"
#include "operators/fv/laplacian.hpp"
#include "solvers/fft/extrusion.hpp"
#include "solvers/jacobi.hpp"
#include "solvers/pcg.hpp"

namespace miniapp::test {

// Walls on every side patch, an outlet on xmax when asked.
inline fv::FlowBoundaries side_boundaries(const mesh::Mesh& m, bool outlet) {
  fv::FlowBoundaries b;
  for (const auto& patch : m.patches)
    b.by_patch.push_back({outlet && patch.name == "xmax" ? BoundaryKind::outlet : BoundaryKind::wall, {0, 0, 0}});
  return b;
}

// −L2d and w of a two-layer extrusion of an nx × ny quad rectangle stretched along x (walls: singular).
inline fft::PlaneOperator minus_plane_operator(index_t nx, index_t ny) {
  const auto m = mesh::extrude(mesh::make_quad_rect({.cells = {nx, ny}, .stretch = {1.3, 0}}), {.layers = 2});
  const auto geometry = mesh::compute_geometry(m);
  fft::PlaneOperator op = fft::split_extruded_operator(fv::laplacian_matrix(m, geometry), fft::detect_extrusion(m, geometry));
  for (double& v : op.in_plane.val) v = -v;
  return op;
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

// Column s of an interleaved vector (system s of a batched one).
inline std::vector<double> column(const std::vector<double>& v, std::size_t systems, std::size_t s) {
  std::vector<double> out(v.size() / systems);
  for (std::size_t c = 0; c < out.size(); ++c) out[c] = v[c * systems + s];
  return out;
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

// The 3D PCG (Jacobi, CPU) solution of −L x = b from zero to `tolerance`: the reference the FFT path is
// checked against. Throws miniapp::Error when it does not converge.
inline std::vector<double> pcg_reference(const CsrMatrix& minus_l, const std::vector<double>& b, bool singular,
                                         double tolerance) {
  const Executor exec = Executor::cpu();
  const DeviceSell a(exec, to_sell(minus_l, 8));
  const Jacobi jacobi(exec, minus_l);
  Vector x = Vector::from_host(exec, std::vector<double>(b.size(), 0.0));
  Pcg pcg(exec, minus_l.rows);
  const PcgResult result = pcg.solve(a, jacobi, Vector::from_host(exec, b), x,
                                     {.tolerance = tolerance, .max_iterations = 5000, .singular = singular});
  if (!result.converged) throw Error("pcg_reference: " + result.warning);
  return x.to_host();
}

}  // namespace miniapp::test
