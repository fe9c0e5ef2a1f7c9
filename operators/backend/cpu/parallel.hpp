#pragma once
#include <algorithm>
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

}  // namespace miniapp::cpu
