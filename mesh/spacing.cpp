#include "mesh/spacing.hpp"

#include <cmath>

namespace miniapp::mesh {

std::vector<double> stretched_coordinates(index_t n, double x0, double length, double beta) {
  std::vector<double> x(n + 1);
  for (index_t i = 0; i <= n; ++i) {
    const double xi = 2.0 * i / n - 1.0;
    const double s = beta > 0 ? std::tanh(beta * xi) / std::tanh(beta) : xi;
    x[i] = x0 + length * 0.5 * (1.0 + s);
  }
  x[n] = x0 + length;  // exact end, so periodic twins and neighbouring blocks line up
  return x;
}

void check_axis(index_t n, double x0, double length, double beta, const std::string& where) {
  if (n < 1) throw Error(where + ": " + std::to_string(n) + " cells; at least 1 is needed");
  if (!std::isfinite(x0)) throw Error(where + ": origin " + std::to_string(x0) + " is not finite");
  if (!(length > 0) || !std::isfinite(length))
    throw Error(where + ": length " + std::to_string(length) + " must be positive and finite");
  if (!(beta >= 0) || !std::isfinite(beta))
    throw Error(where + ": stretch " + std::to_string(beta) + " must be >= 0 and finite (0 = uniform)");
}

}  // namespace miniapp::mesh
