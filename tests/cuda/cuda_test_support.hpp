#pragma once
// Helpers of the CUDA equivalence tests: the same data on the CPU (reference) and CUDA executors,
// and the comparisons used throughout.
#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <vector>

#include "operators/backend/array.hpp"
#include "tests/operators/matrix_generators.hpp"

namespace miniapp::test {

// Larger than several blocks of 256 threads and not a multiple of any slice height or block size.
// In GENERATE, lead with as<index_t>{}: given a named constant first, Catch2 v2 deduces a reference
// type and keeps dangling references to the other (temporary) values.
inline constexpr index_t large_n = 100003;
// Tolerance of results that may round differently on the two backends (FMA, summation order).
inline constexpr double tolerance = 1e-13;

// A host vector and its copies on both executors.
struct Mirrored {
  Vector cpu, gpu;
  Mirrored(const Executor& cpu_exec, const Executor& gpu_exec, const std::vector<double>& host)
      : cpu(Vector::from_host(cpu_exec, host)), gpu(Vector::from_host(gpu_exec, host)) {}
};

inline std::vector<double> nan_vector(index_t n) {
  return std::vector<double>(static_cast<std::size_t>(n), std::numeric_limits<double>::quiet_NaN());
}

// max_i |got_i − want_i| / scale: infinite on a size mismatch or a NaN in either (so a NaN always
// fails a tolerance check). scale defaults to max_i |want_i| (1 when want is all zero).
inline double relative_difference(const std::vector<double>& got, const std::vector<double>& want, double scale = 0) {
  if (got.size() != want.size()) return std::numeric_limits<double>::infinity();
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (std::isnan(got[i]) || std::isnan(want[i])) return std::numeric_limits<double>::infinity();
    diff = std::max(diff, std::abs(got[i] - want[i]));
    norm = std::max(norm, std::abs(want[i]));
  }
  if (scale == 0) scale = norm > 0 ? norm : 1.0;
  return diff / scale;
}

// Empties rows [first, last) of a: whole empty slices for slice heights dividing the range.
inline CsrMatrix with_empty_rows(const CsrMatrix& a, index_t first, index_t last) {
  CsrMatrix b{a.rows, a.cols, {0}, {}, {}};
  for (index_t r = 0; r < a.rows; ++r) {
    if (r < first || r >= last) {
      b.col.insert(b.col.end(), a.col.begin() + a.row_ptr[r], a.col.begin() + a.row_ptr[r + 1]);
      b.val.insert(b.val.end(), a.val.begin() + a.row_ptr[r], a.val.begin() + a.row_ptr[r + 1]);
    }
    b.row_ptr.push_back(b.nnz());
  }
  return b;
}

}  // namespace miniapp::test
