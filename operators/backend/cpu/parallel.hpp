#pragma once
#include <algorithm>
#include <array>
#include <cstdint>

#include "core/types.hpp"

namespace miniapp::cpu {

// Below this many entries a kernel runs on one thread (OpenMP `if` clause): forking and joining a
// parallel region costs microseconds, more than such a loop, and far more when a core is shared with
// another process (every thread of the region waits at the barrier for a descheduled one). The time
// loop of a small mesh makes hundreds of kernel calls per step.
inline constexpr index_t min_parallel_entries = 50'000;

inline bool worth_parallel(index_t entries) { return entries >= min_parallel_entries; }

// Reductions that give the same sum on any thread count and from one call to the next (an OpenMP
// reduction clause adds the threads' shares in the order they finish): [0, n) is cut into chunks
// whose size depends on n only, each chunk summed on one thread, the chunks' sums added in order.
inline constexpr index_t max_sum_chunks = 1024;
inline constexpr index_t min_chunk_rows = 4096;  // so that the per-chunk overhead is noise

// Rows per chunk: at least min_chunk_rows, at most max_sum_chunks chunks.
inline index_t chunk_rows(index_t n) {
  const auto spread = static_cast<index_t>((static_cast<std::int64_t>(n) + max_sum_chunks - 1) / max_sum_chunks);
  return std::max(min_chunk_rows, spread);
}

// Whole sELL slices of height h per chunk, for chunked sums over the slices of an n-row matrix.
inline index_t slices_per_chunk(index_t n, index_t h, index_t slices) {
  return std::max((chunk_rows(n) + h - 1) / h, (slices - 1) / max_sum_chunks + 1);
}

// sums[k] = Σ over chunks c (in order) of body(begin_c, end_c, acc)[k]; body adds its chunk's share to
// acc. `partials` (K · max_sum_chunks entries) holds the chunk sums between the parallel and the
// ordered phase; `chunk` makes at most max_sum_chunks chunks of [0, n), each of at least
// min_chunk_rows rows (n may count rows or slices), which decides whether a team is worth starting.
template <int K, class Body>
void chunked_sums(index_t n, index_t chunk, double* partials, double (&sums)[K], Body&& body) {
  const index_t chunks = n == 0 ? 0 : (n - 1) / chunk + 1;
#pragma omp parallel for schedule(static) if (worth_parallel(chunks * min_chunk_rows))
  for (index_t c = 0; c < chunks; ++c) {
    double acc[K] = {};
    body(c * chunk, std::min(n, (c + 1) * chunk), acc);
    for (int k = 0; k < K; ++k) partials[k * max_sum_chunks + c] = acc[k];
  }
  for (int k = 0; k < K; ++k) {
    sums[k] = 0.0;
    for (index_t c = 0; c < chunks; ++c) sums[k] += partials[k * max_sum_chunks + c];
  }
}

// acc[k] += Σ over i in [begin, end) of terms(i)[k] (terms returns a std::array<double, K>), the
// chunk's j-th term added into running sum j mod sum_lanes, the lanes then combined pairwise. One
// running sum waits for each addition before the next (and GCC keeps an `omp simd` reduction's lanes
// in memory), which holds a dot in cache to a fraction of the bandwidth; independent lanes vectorize
// and overlap. The order is the code's, not the instruction set's: the same sum on every build.
inline constexpr int sum_lanes = 8;

template <int K, class Terms>
void add_lane_sums(index_t begin, index_t end, double* acc, Terms&& terms) {
  double lane[K][sum_lanes] = {};
  index_t i = begin;
  for (; i + sum_lanes <= end; i += sum_lanes) {
#pragma omp simd
    for (int l = 0; l < sum_lanes; ++l) {
      const std::array<double, K> t = terms(i + l);
      for (int k = 0; k < K; ++k) lane[k][l] += t[k];
    }
  }
  for (int l = 0; i < end; ++i, ++l) {
    const std::array<double, K> t = terms(i);
    for (int k = 0; k < K; ++k) lane[k][l] += t[k];
  }
  for (int k = 0; k < K; ++k) {
    for (int width = sum_lanes / 2; width > 0; width /= 2)
      for (int l = 0; l < width; ++l) lane[k][l] += lane[k][l + width];
    acc[k] += lane[k][0];
  }
}

// sums[k] = Σ over rows i < n of terms(i)[k]: chunked_sums over chunks of rows, each chunk in lanes.
template <int K, class Terms>
void row_sums(index_t n, double* partials, double (&sums)[K], Terms&& terms) {
  chunked_sums(n, chunk_rows(n), partials, sums,
               [&](index_t begin, index_t end, double* acc) { add_lane_sums<K>(begin, end, acc, terms); });
}

}  // namespace miniapp::cpu
