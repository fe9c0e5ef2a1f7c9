#include "miniapp/predict/stencil_matrix.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace miniapp::predict {
namespace {

// The stencil's grid on about `rows` cells, n in all (the same number along every direction but the
// last); offset[d] from a cell to its next one along direction d.
struct Grid {
  index_t n = 1;
  std::array<index_t, 3> offset{};
};

Grid grid(index_t rows, int dimensions) {
  const double r = static_cast<double>(rows);
  const auto n1 = std::max<index_t>(1, static_cast<index_t>(dimensions == 3 ? std::cbrt(r) : std::sqrt(r)));
  const index_t plane = dimensions == 3 ? n1 * n1 : n1;
  return {plane * std::max<index_t>(1, rows / plane), {1, n1, n1 * n1}};
}

}  // namespace

CsrMatrix stencil_matrix(index_t rows, int dimensions) {
  const Grid g = grid(rows, dimensions);
  const index_t n = g.n;
  std::vector<Triplet> t;
  for (index_t i = 0; i < n; ++i) {
    t.push_back({i, i, 2.0 * dimensions});
    for (int d = 0; d < dimensions; ++d) {
      const index_t o = g.offset[d];
      if (i - o >= 0) t.push_back({i, i - o, -1.0});
      if (i + o < n) t.push_back({i, i + o, -1.0});
    }
  }
  return csr_from_triplets(n, n, std::move(t));
}

CsrMatrix face_matrix(index_t cells) {
  const Grid g = grid(cells, 3);
  std::vector<Triplet> t;
  index_t face = 0;
  for (index_t i = 0; i < g.n; ++i)
    for (int d = 0; d < 3; ++d)
      if (i + g.offset[d] < g.n) {
        t.push_back({face, 3 * i + d, 0.5});
        t.push_back({face, 3 * (i + g.offset[d]) + d, 0.5});
        ++face;
      }
  return csr_from_triplets(face, 3 * g.n, std::move(t));
}

}  // namespace miniapp::predict
