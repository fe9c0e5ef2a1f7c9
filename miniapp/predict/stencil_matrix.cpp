#include "miniapp/predict/stencil_matrix.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

namespace miniapp::predict {
namespace {

// The stencil's grid on about `rows` cells: n1 cells along every direction but the last, n in all.
struct Grid {
  index_t n1 = 1, n = 1;
};

Grid grid(index_t rows, int dimensions) {
  const double r = static_cast<double>(rows);
  const auto n1 = std::max<index_t>(1, static_cast<index_t>(dimensions == 3 ? std::cbrt(r) : std::sqrt(r)));
  const index_t plane = dimensions == 3 ? n1 * n1 : n1;
  return {n1, plane * std::max<index_t>(1, rows / plane)};
}

}  // namespace

CsrMatrix stencil_matrix(index_t rows, int dimensions) {
  const auto [n1, n] = grid(rows, dimensions);
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

CsrMatrix face_matrix(index_t cells) {
  const auto [n1, n] = grid(cells, 3);
  const index_t offsets[] = {1, n1, n1 * n1};
  std::vector<Triplet> t;
  index_t face = 0;
  for (index_t i = 0; i < n; ++i)
    for (int d = 0; d < 3; ++d)
      if (i + offsets[d] < n) {
        t.push_back({face, 3 * i + d, 0.5});
        t.push_back({face, 3 * (i + offsets[d]) + d, 0.5});
        ++face;
      }
  return csr_from_triplets(face, 3 * n, std::move(t));
}

}  // namespace miniapp::predict
