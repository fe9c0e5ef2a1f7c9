#include "miniapp/predict/stencil_matrix.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace miniapp::predict {

CsrMatrix stencil_matrix(index_t rows, int dimensions) {
  const double r = static_cast<double>(rows);
  const auto n1 = std::max<index_t>(1, static_cast<index_t>(dimensions == 3 ? std::cbrt(r) : std::sqrt(r)));
  const index_t plane = dimensions == 3 ? n1 * n1 : n1;
  const index_t n = plane * std::max<index_t>(1, rows / plane);
  std::vector<Triplet> t;
  const index_t offsets[] = {1, n1, n1 * n1};
  for (index_t i = 0; i < n; ++i) {
    t.push_back({i, i, 2.0 * dimensions});
    for (int d = 0; d < dimensions; ++d) {
      const index_t o = offsets[d];
      if (i - o >= 0) t.push_back({i, i - o, -1.0});
      if (i + o < n) t.push_back({i, i + o, -1.0});
    }
  }
  return csr_from_triplets(n, n, std::move(t));
}

}  // namespace miniapp::predict
