// How evenly the CUDA backend's one-thread-per-row sELL products of the V-cycle spread over a GPU's
// multiprocessors, for thread blocks of 256 (as built), 128, 64 and 32 threads (docs/amg.md, Not done
// yet: R₁'s blocks). A product of a coarse level's few rows is a single wave of blocks, dealt out in
// turn to the multiprocessors, so some hold one block more than others; where a multiprocessor's time
// follows the entries its warps read, the product lasts as long as the busiest one. For −L of an n³
// box in the solver's row order and its float hierarchy: per matrix of the levels above the coarsest
// kept in sELL, the blocks, the waves at full residency, and the busiest multiprocessor's stored
// entries and warps over the mean; a multi-wave grid is dealt greedily to the least loaded one.
// Usage: block_balance hex|tet N [multiprocessors]   (132 on the H100 SXM and the H200)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <numeric>
#include <queue>
#include <string>
#include <utility>
#include <vector>

#include "solvers/amg/level_matrix.hpp"
#include "tools/cpu/box_hierarchy.hpp"

using namespace miniapp;

namespace {

constexpr index_t warp = 32;            // CUDA's slice height: a slice is one warp's rows
constexpr int threads_per_sm = 2048;    // resident threads of a multiprocessor (sm_90)
constexpr int blocks_per_sm_limit = 32;  // resident blocks of a multiprocessor (sm_90)

// Stored entries of each slice of 32 rows: 32 times its longest row.
std::vector<double> slice_entries(const CsrMatrix& m) {
  std::vector<double> entries(static_cast<std::size_t>((m.rows + warp - 1) / warp), 0.0);
  for (index_t r = 0; r < m.rows; ++r) {
    double& e = entries[static_cast<std::size_t>(r / warp)];
    e = std::max(e, static_cast<double>(warp * m.row_length(r)));
  }
  return entries;
}

struct Balance {
  std::size_t blocks;
  double waves, busiest_entries, busiest_warps;  // the last two over the mean
};

Balance balance(const std::vector<double>& slices, int threads, int sms) {
  const std::size_t per_block = static_cast<std::size_t>(threads / warp);
  const std::size_t blocks = (slices.size() + per_block - 1) / per_block;
  std::vector<double> work(blocks, 0.0), warps(blocks, 0.0);
  for (std::size_t s = 0; s < slices.size(); ++s) {
    work[s / per_block] += slices[s];
    warps[s / per_block] += 1.0;
  }
  const int resident = std::min(blocks_per_sm_limit, threads_per_sm / threads);
  std::vector<double> sm_work(static_cast<std::size_t>(sms), 0.0), sm_warps(static_cast<std::size_t>(sms), 0.0);
  if (blocks <= static_cast<std::size_t>(resident) * static_cast<std::size_t>(sms)) {
    for (std::size_t b = 0; b < blocks; ++b) {  // one wave, dealt in turn
      sm_work[b % static_cast<std::size_t>(sms)] += work[b];
      sm_warps[b % static_cast<std::size_t>(sms)] += warps[b];
    }
  } else {  // waves: each next block to the multiprocessor with the least work so far
    using Load = std::pair<double, int>;
    std::priority_queue<Load, std::vector<Load>, std::greater<>> least;
    for (int s = 0; s < sms; ++s) least.push({0.0, s});
    for (std::size_t b = 0; b < blocks; ++b) {
      auto [w, s] = least.top();
      least.pop();
      sm_work[static_cast<std::size_t>(s)] = w + work[b];
      sm_warps[static_cast<std::size_t>(s)] += warps[b];
      least.push({w + work[b], s});
    }
  }
  const auto mean = [](const std::vector<double>& v) {
    return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
  };
  return {blocks, static_cast<double>(blocks) / (static_cast<double>(resident) * sms),
          *std::max_element(sm_work.begin(), sm_work.end()) / mean(sm_work),
          *std::max_element(sm_warps.begin(), sm_warps.end()) / mean(sm_warps)};
}

}  // namespace

int main(int argc, char** argv) {
  const int sms = argc == 4 ? std::atoi(argv[3]) : 132;
  if ((argc != 3 && argc != 4) || !lab::is_box_mesh(argv[1]) || std::atoi(argv[2]) < 2 || sms < 1) {
    std::fprintf(stderr, "usage: block_balance hex|tet N [multiprocessors]   (an N³ box; tet: N³ · 6 cells)\n");
    return 2;
  }
  const amg::HostHierarchy h = lab::box_float_hierarchy(argv[1], std::atoi(argv[2]));
  std::printf("%d multiprocessors; per block size: blocks, waves, the busiest multiprocessor's entries and warps "
              "over the mean\n",
              sms);
  std::printf("%-5s %-2s %9s %11s", "level", "", "rows", "widest/mean");
  const int block_threads[] = {256, 128, 64, 32};
  for (int t : block_threads) std::printf("   %27d", t);
  std::printf("\n");
  for (std::size_t l = 0; l < h.levels.size(); ++l) {
    const amg::HostLevel& level = h.levels[l];
    const std::pair<const char*, const CsrMatrix*> matrices[] = {
        {"A", &level.a.host}, {"P", &level.prolongation.host}, {"R", &level.restriction.host}};
    for (const auto& [name, m] : matrices) {
      if (amg::kept_in_csr(m->rows, m->nnz())) continue;  // a group of lanes a row, not this layout
      const std::vector<double> slices = slice_entries(*m);
      const double mean_slice = std::accumulate(slices.begin(), slices.end(), 0.0) / static_cast<double>(slices.size());
      std::printf("%-5zu %-2s %9d %11.2f", l, name, m->rows,
                  *std::max_element(slices.begin(), slices.end()) / mean_slice);
      for (int t : block_threads) {
        const Balance b = balance(slices, t, sms);
        std::printf("   %6zu %5.2f %6.3f %6.3f", b.blocks, b.waves, b.busiest_entries, b.busiest_warps);
      }
      std::printf("\n");
    }
  }
}
