#include <cmath>
#include <string>

#include "core/error.hpp"
#include "miniapp/output/cell_fields.hpp"

namespace miniapp::output {

VelocityInvariants velocity_invariants(const std::array<double, 9>& g) {
  const auto at = [&g](int i, int j) { return g[3 * i + j]; };
  const double wx = at(2, 1) - at(1, 2);
  const double wy = at(0, 2) - at(2, 0);
  const double wz = at(1, 0) - at(0, 1);
  double strain2 = 0, rotation2 = 0;
  for (int i = 0; i < 3; ++i) {
    for (int j = 0; j < 3; ++j) {
      const double s = 0.5 * (at(i, j) + at(j, i));
      const double r = 0.5 * (at(i, j) - at(j, i));
      strain2 += s * s;
      rotation2 += r * r;
    }
  }
  return {std::sqrt(wx * wx + wy * wy + wz * wz), 0.5 * (rotation2 - strain2)};
}

void compute_velocity_invariants(const std::array<std::vector<double>, 9>& gradient, CellFields& fields) {
  const std::size_t n = gradient[0].size();
  for (std::size_t k = 1; k < gradient.size(); ++k) {
    if (gradient[k].size() != n)
      throw Error("compute_velocity_invariants: gradient component " + std::to_string(k) + " has " +
                  std::to_string(gradient[k].size()) + " values, component 0 has " + std::to_string(n));
  }
  fields.vorticity_magnitude.resize(n);
  fields.q_criterion.resize(n);
  for (std::size_t c = 0; c < n; ++c) {
    std::array<double, 9> g;
    for (std::size_t k = 0; k < 9; ++k) g[k] = gradient[k][c];
    const VelocityInvariants inv = velocity_invariants(g);
    fields.vorticity_magnitude[c] = inv.vorticity_magnitude;
    fields.q_criterion[c] = inv.q_criterion;
  }
}

}  // namespace miniapp::output
