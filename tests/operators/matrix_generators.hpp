#pragma once
#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "operators/sparse/csr_matrix.hpp"

// Test matrices and vectors shared by the operator tests (and the CUDA equivalence tests).
namespace miniapp::test {

// A rows x cols matrix with 0..max_per_row random entries per row (so some rows are empty), values in
// [-1, 1]; duplicates drawn at random are summed by csr_from_triplets.
inline CsrMatrix random_csr(index_t rows, index_t cols, int max_per_row, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> count(0, max_per_row);
  std::uniform_int_distribution<index_t> column(0, cols - 1);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::vector<Triplet> t;
  for (index_t r = 0; r < rows; ++r)
    for (int n = count(gen); n > 0; --n) t.push_back({r, column(gen), value(gen)});
  return csr_from_triplets(rows, cols, std::move(t));
}

inline std::vector<double> random_vector(index_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  std::vector<double> v(static_cast<std::size_t>(n));
  for (double& x : v) x = value(gen);
  return v;
}

// m distinct indices of [0, n) in random order (repeated entries would make scatter ill-defined).
inline std::vector<index_t> random_indices(index_t n, index_t m, unsigned seed) {
  std::vector<index_t> all(static_cast<std::size_t>(n));
  std::iota(all.begin(), all.end(), 0);
  std::shuffle(all.begin(), all.end(), std::mt19937(seed));
  all.resize(static_cast<std::size_t>(m));
  return all;
}

// The 7-point Laplacian of an nx x ny x nz grid with unit spacing and zero-flux walls: off-diagonal 1
// per neighbour, diagonal minus the neighbour count, so every row sums to 0. With `periodic` every
// cell has 6 neighbours (each extent must be at least 3).
inline CsrMatrix laplacian_3d(index_t nx, index_t ny, index_t nz, bool periodic = false) {
  const index_t n[3] = {nx, ny, nz};
  auto id = [&](index_t i, index_t j, index_t k) { return i + nx * (j + ny * k); };
  std::vector<Triplet> t;
  for (index_t k = 0; k < nz; ++k)
    for (index_t j = 0; j < ny; ++j)
      for (index_t i = 0; i < nx; ++i) {
        const index_t c[3] = {i, j, k};
        double diag = 0;
        for (int d = 0; d < 3; ++d)
          for (int s = -1; s <= 1; s += 2) {
            index_t m[3] = {c[0], c[1], c[2]};
            m[d] += s;
            if (m[d] < 0 || m[d] >= n[d]) {
              if (!periodic) continue;
              m[d] = (m[d] + n[d]) % n[d];
            }
            t.push_back({id(i, j, k), id(m[0], m[1], m[2]), 1.0});
            diag -= 1.0;
          }
        t.push_back({id(i, j, k), id(i, j, k), diag});
      }
  return csr_from_triplets(nx * ny * nz, nx * ny * nz, std::move(t));
}

// Dense copy, for checking products on small matrices.
inline std::vector<std::vector<double>> to_dense(const CsrMatrix& a) {
  std::vector<std::vector<double>> d(a.rows, std::vector<double>(a.cols, 0.0));
  for (index_t r = 0; r < a.rows; ++r)
    for (index_t p = a.row_ptr[r]; p < a.row_ptr[r + 1]; ++p) d[r][a.col[p]] += a.val[p];
  return d;
}

}  // namespace miniapp::test
