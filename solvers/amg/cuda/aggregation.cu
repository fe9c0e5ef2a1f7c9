// amg::aggregate's rounds on the device (aggregation.hpp), one thread per row in every kernel. The
// host chooses each round's roots among the undecided rows whose priority is the largest within two
// links, then excludes the undecided rows within two links of a root; here both "within two links"
// come from two passes of a neighbourhood maximum (a root has the largest state, so a row is near one
// when its two-link maximum is `chosen`): the same sets, so the same aggregates.
#include "solvers/amg/cuda/aggregation.hpp"

#include <cstdint>
#include <optional>

#include <cub/device/device_scan.cuh>

#include "operators/backend/cuda/check.cuh"
#include "operators/backend/cuda/stream_scratch.cuh"
#include "solvers/amg/cuda/setup_launch.cuh"
#include "solvers/amg/aggregation_rules.hpp"

namespace miniapp::amg::cuda {
namespace {

using namespace aggregation_rules;
using miniapp::cuda::detail::as_stream;
using miniapp::cuda::detail::global_thread;
using detail::per_item;
using miniapp::cuda::detail::read_one;
using miniapp::cuda::detail::StreamScratch;

__global__ void start_states(index_t n, const index_t* __restrict__ candidate, std::uint64_t* __restrict__ state) {
  const std::int64_t i = global_thread();
  if (i < n) state[i] = candidate == nullptr || candidate[i] ? priority(static_cast<index_t>(i)) : excluded;
}

__global__ void neighbourhood_max(CsrView g, const std::uint64_t* __restrict__ in, std::uint64_t* __restrict__ out) {
  const std::int64_t i = global_thread();
  if (i >= g.rows) return;
  std::uint64_t m = in[i];
  for (index_t k = g.row_ptr[i]; k < g.row_ptr[i + 1]; ++k) {
    const std::uint64_t x = in[g.col[k]];
    if (x > m) m = x;
  }
  out[i] = m;
}

__global__ void choose(index_t n, const std::uint64_t* __restrict__ within_two, std::uint64_t* __restrict__ state) {
  const std::int64_t i = global_thread();
  if (i < n && undecided(state[i]) && within_two[i] == state[i]) state[i] = chosen;
}

// Excludes the undecided rows near a root and counts those still undecided.
__global__ void exclude(index_t n, const std::uint64_t* __restrict__ within_two, std::uint64_t* __restrict__ state,
                        index_t* __restrict__ left) {
  const std::int64_t i = global_thread();
  if (i >= n || !undecided(state[i])) return;
  if (within_two[i] == chosen) state[i] = excluded;
  else atomicAdd(left, 1);
}

__global__ void chosen_flags(index_t n, const std::uint64_t* __restrict__ state, index_t* __restrict__ flag) {
  const std::int64_t i = global_thread();
  if (i < n) flag[i] = state[i] == chosen ? 1 : 0;
}

// id[i] = first + the rank of row i among the flagged rows (its inclusive count less one), free_row
// elsewhere.
__global__ void number_flagged(index_t n, const index_t* __restrict__ flag, const index_t* __restrict__ counted,
                               index_t first, index_t* __restrict__ id) {
  const std::int64_t i = global_thread();
  if (i < n) id[i] = flag[i] ? first + counted[i] - 1 : free_row;
}

// As the host's take_neighbours: a free root joins its own aggregate, a free row the one of its
// neighbour that is a root (at most one is).
__global__ void take_neighbours(CsrView g, const index_t* __restrict__ id, index_t* __restrict__ of_row) {
  const std::int64_t i = global_thread();
  if (i >= g.rows || of_row[i] != free_row) return;
  if (id[i] != free_row) {
    of_row[i] = id[i];
    return;
  }
  for (index_t k = g.row_ptr[i]; k < g.row_ptr[i + 1]; ++k)
    if (id[g.col[k]] != free_row) of_row[i] = id[g.col[k]];
}

__global__ void second_candidates(CsrView g, const index_t* __restrict__ of_row, index_t* __restrict__ candidate) {
  const std::int64_t i = global_thread();
  if (i >= g.rows) return;
  int free_neighbours = 0;
  if (of_row[i] == free_row)
    for (index_t k = g.row_ptr[i]; k < g.row_ptr[i + 1]; ++k) free_neighbours += g.col[k] != i && of_row[g.col[k]] == free_row;
  candidate[i] = free_neighbours >= second_root_neighbours;
}

// A row left over joins the aggregate of its rooted neighbour with the largest join_strength (the
// first of equals in row order).
__global__ void join_strongest(CsrView g, const double* __restrict__ d, const index_t* __restrict__ rooted,
                               index_t* __restrict__ of_row) {
  const std::int64_t i = global_thread();
  if (i >= g.rows || rooted[i] != free_row) return;
  double strongest = -1;
  for (index_t k = g.row_ptr[i]; k < g.row_ptr[i + 1]; ++k) {
    const index_t j = g.col[k];
    const double strength = join_strength(g.val[k], d[j]);
    if (j != i && rooted[j] != free_row && strength > strongest) {
      strongest = strength;
      of_row[i] = rooted[j];
    }
  }
}

__global__ void either_flag(index_t n, const index_t* __restrict__ other, index_t* __restrict__ flag) {
  const std::int64_t i = global_thread();
  if (i < n) flag[i] |= other[i];
}

// The k-th root (k its rank among the flagged rows) and its aggregate's new number k.
__global__ void list_roots(index_t n, const index_t* __restrict__ flag, const index_t* __restrict__ counted,
                           const index_t* __restrict__ of_row, index_t* __restrict__ root, index_t* __restrict__ renamed) {
  const std::int64_t i = global_thread();
  if (i >= n || !flag[i]) return;
  const index_t k = counted[i] - 1;
  root[k] = static_cast<index_t>(i);
  renamed[of_row[i]] = k;
}

__global__ void renumber(index_t n, const index_t* __restrict__ renamed, index_t* __restrict__ of_row) {
  const std::int64_t i = global_thread();
  if (i < n && of_row[i] != free_row) of_row[i] = renamed[of_row[i]];
}

// The work of one aggregation: its scratch vectors and the rounds that use them.
class Aggregation {
 public:
  Aggregation(cudaStream_t s, const CsrView& g)
      : s(s), g(g), n(g.rows), state(s, n), near(s, n), within_two(s, n), counted(s, n), left(s, 1) {
    MINIAPP_CUDA_CHECK(cub::DeviceScan::InclusiveSum(nullptr, scan_bytes, counted.get(), counted.get(), n, s));
    scan_space.emplace(s, scan_bytes);
  }
  // flag[i] = 1 for the rows of a maximal distance-2 independent set among the candidates (all rows
  // when candidate is null), by the host's rounds.
  void independent_set(const index_t* candidate, index_t* flag) {
    per_item(s, "start_states", start_states, n, n, candidate, state.get());
    for (;;) {
      within_two_max();
      per_item(s, "choose", choose, n, n, within_two.get(), state.get());
      within_two_max();
      MINIAPP_CUDA_CHECK(cudaMemsetAsync(left.get(), 0, sizeof(index_t), s));
      per_item(s, "exclude", exclude, n, n, within_two.get(), state.get(), left.get());
      if (read_one(s, left.get()) == 0) break;
    }
    per_item(s, "chosen_flags", chosen_flags, n, n, state.get(), flag);
  }

  // counted = the inclusive sums of flag; returns their total.
  index_t count(const index_t* flag) {
    MINIAPP_CUDA_CHECK(cub::DeviceScan::InclusiveSum(scan_space->get(), scan_bytes, flag, counted.get(), n, s));
    return read_one(s, counted.get() + n - 1);
  }

  // Numbers the flagged rows from `first` into id; returns how many.
  index_t number(const index_t* flag, index_t first, index_t* id) {
    const index_t c = count(flag);
    per_item(s, "number_flagged", number_flagged, n, n, flag, counted.get(), first, id);
    return c;
  }

  const index_t* counts() const { return counted.get(); }

 private:
  void within_two_max() {
    per_item(s, "neighbourhood_max", neighbourhood_max, n, g, state.get(), near.get());
    per_item(s, "neighbourhood_max", neighbourhood_max, n, g, near.get(), within_two.get());
  }

  cudaStream_t s;
  CsrView g;
  index_t n;
  StreamScratch<std::uint64_t> state, near, within_two;
  StreamScratch<index_t> counted, left;
  std::size_t scan_bytes = 0;
  std::optional<StreamScratch<unsigned char>> scan_space;
};

}  // namespace

index_t aggregate_rows(void* stream, const CsrView& g, const double* d, index_t* of_row, index_t* root) {
  const index_t n = g.rows;
  if (n == 0) return 0;
  const cudaStream_t s = as_stream(stream);
  Aggregation work(s, g);
  StreamScratch<index_t> first_root(s, n), second_root(s, n), candidate(s, n), id(s, n), rooted(s, n);
  MINIAPP_CUDA_CHECK(cudaMemsetAsync(of_row, 0xff, sizeof(index_t) * static_cast<std::size_t>(n), s));  // free_row
  // The host's steps (aggregation.cpp), in its order.
  work.independent_set(nullptr, first_root.get());
  index_t count = work.number(first_root.get(), 0, id.get());
  per_item(s, "take_neighbours", take_neighbours, n, g, id.get(), of_row);
  per_item(s, "second_candidates", second_candidates, n, g, of_row, candidate.get());
  work.independent_set(candidate.get(), second_root.get());
  count += work.number(second_root.get(), count, id.get());
  per_item(s, "take_neighbours", take_neighbours, n, g, id.get(), of_row);
  MINIAPP_CUDA_CHECK(cudaMemcpyAsync(rooted.get(), of_row, sizeof(index_t) * static_cast<std::size_t>(n),
                                     cudaMemcpyDeviceToDevice, s));
  per_item(s, "join_strongest", join_strongest, n, g, d, rooted.get(), of_row);
  // Renumbered in the order of the roots' rows; `id` is free to take the new numbers.
  per_item(s, "either_flag", either_flag, n, n, second_root.get(), first_root.get());
  work.count(first_root.get());
  per_item(s, "list_roots", list_roots, n, n, first_root.get(), work.counts(), of_row, root, id.get());
  per_item(s, "renumber", renumber, n, n, id.get(), of_row);
  MINIAPP_CUDA_CHECK(cudaStreamSynchronize(s));
  return count;
}

}  // namespace miniapp::amg::cuda
