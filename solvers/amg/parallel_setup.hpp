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

// Σ v_i² in a fixed order: per chunk of square_sum_chunk entries (in parallel), square_sum_lanes sums
// of every lane-th entry, each in order, then the lanes' sums in order; then the chunks' sums in order.
// The same rounding on any number of threads, and on a device, whose warp per chunk reads the chunk
// coalesced (device_eigenvalue_bound).
inline constexpr index_t square_sum_chunk = 4096;
inline constexpr index_t square_sum_lanes = 32;
inline double chunk_sum_of_squares(const double* v, std::size_t count) {
  constexpr auto lanes = static_cast<std::size_t>(square_sum_lanes);
  double lane[lanes] = {};
  for (std::size_t i = 0; i < count; ++i) lane[i % lanes] += v[i] * v[i];
  double sum = 0;
  for (double s : lane) sum += s;
  return sum;
}
inline double ordered_sum_of_squares(const std::vector<double>& v) {
  constexpr auto chunk = static_cast<std::size_t>(square_sum_chunk);
  const std::size_t chunks = (v.size() + chunk - 1) / chunk;
  std::vector<double> partial(chunks, 0.0);
#pragma omp parallel for schedule(static) if (cpu::worth_parallel(static_cast<index_t>(v.size())))
  for (std::size_t c = 0; c < chunks; ++c)
    partial[c] = chunk_sum_of_squares(v.data() + c * chunk, std::min(chunk, v.size() - c * chunk));
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
