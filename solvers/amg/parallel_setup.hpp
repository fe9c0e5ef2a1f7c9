#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "operators/backend/cpu/parallel.hpp"
#include "solvers/amg/aggregation_rules.hpp"  // mix_bits

// Small parallel building blocks of the AMG set-up whose results do not depend on the thread count. Its
// loops run on one thread where cpu::worth_parallel says a parallel region costs more than the loop
// (the small coarse levels).
namespace miniapp::amg {

// Σ v_i², summed per chunk of square_sum_chunk entries in parallel, then over the chunks in order: the
// same rounding on any number of threads (and on a device: device_eigenvalue_bound).
inline constexpr index_t square_sum_chunk = 4096;
inline double ordered_sum_of_squares(const std::vector<double>& v) {
  constexpr auto chunk = static_cast<std::size_t>(square_sum_chunk);
  const std::size_t chunks = (v.size() + chunk - 1) / chunk;
  std::vector<double> partial(chunks, 0.0);
#pragma omp parallel for schedule(static) if (cpu::worth_parallel(static_cast<index_t>(v.size())))
  for (std::size_t c = 0; c < chunks; ++c) {
    double s = 0;
    for (std::size_t i = c * chunk; i < std::min(v.size(), (c + 1) * chunk); ++i) s += v[i] * v[i];
    partial[c] = s;
  }
  double sum = 0;
  for (double s : partial) sum += s;
  return sum;
}

// The indices i < n where keep(i), in increasing order: counted and then written per chunk of 4096 in
// parallel (the chunks' offsets summed in order), so the list is the same on any thread count.
template <class Keep>
std::vector<index_t> indices_where(index_t n, Keep keep) {
  constexpr index_t chunk = 4096;
  const index_t chunks = (n + chunk - 1) / chunk;
  std::vector<index_t> offset(static_cast<std::size_t>(chunks) + 1, 0);
  const bool parallel = cpu::worth_parallel(n);
#pragma omp parallel for schedule(static) if (parallel)
  for (index_t c = 0; c < chunks; ++c) {
    index_t count = 0;
    for (index_t i = c * chunk; i < std::min(n, (c + 1) * chunk); ++i) count += keep(i) ? 1 : 0;
    offset[c + 1] = count;
  }
  for (index_t c = 0; c < chunks; ++c) offset[c + 1] += offset[c];
  std::vector<index_t> kept(static_cast<std::size_t>(offset.back()));
#pragma omp parallel for schedule(static) if (parallel)
  for (index_t c = 0; c < chunks; ++c) {
    index_t next = offset[c];
    for (index_t i = c * chunk; i < std::min(n, (c + 1) * chunk); ++i)
      if (keep(i)) kept[next++] = i;
  }
  return kept;
}

}  // namespace miniapp::amg
