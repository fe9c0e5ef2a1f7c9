// How much of the V-cycle's sELL matrices is padding (docs/amg.md, Tried and dropped: sorted rows):
// for −L of an n³ box in the solver's row order and its hierarchy with float storage, each level's A,
// P and R above the coarsest, stored entries per non-zero in slices of 8 rows (the CPU's) and 32
// (CUDA's) with the rows as numbered and with each window of 8 slices' rows longest first (SELL-C-σ);
// then the bytes a cycle reads of its matrices both ways: on each level A twice (the residual and the
// post-smoothing step), P and R once, 8 bytes a stored entry (a float value and its column).
// Usage: sell_padding hex|tet N
#include <algorithm>
#include <cstdio>
#include <functional>
#include <cstdlib>
#include <span>
#include <string>
#include <vector>

#include "operators/sparse/sell_matrix.hpp"
#include "tools/cpu/box_hierarchy.hpp"

using namespace miniapp;

namespace {

constexpr index_t window_slices = 8;

std::vector<index_t> row_lengths(const CsrMatrix& m) {
  std::vector<index_t> lengths(static_cast<std::size_t>(m.rows));
  for (index_t r = 0; r < m.rows; ++r) lengths[static_cast<std::size_t>(r)] = m.row_length(r);
  return lengths;
}

// The lengths with each window of window_slices slices' rows sorted longest first.
std::vector<index_t> sorted_in_windows(std::vector<index_t> lengths, index_t slice_height) {
  const auto window = static_cast<std::size_t>(window_slices * slice_height);
  for (std::size_t w = 0; w < lengths.size(); w += window)
    std::sort(lengths.begin() + static_cast<std::ptrdiff_t>(w),
              lengths.begin() + static_cast<std::ptrdiff_t>(std::min(lengths.size(), w + window)), std::greater<>());
  return lengths;
}

struct Stored {
  std::size_t as_numbered, sorted;
};

Stored stored_entries(const CsrMatrix& m, index_t slice_height) {
  const std::vector<index_t> lengths = row_lengths(m), sorted = sorted_in_windows(lengths, slice_height);
  return {sell_stored_entries(std::span<const index_t>(lengths), slice_height),
          sell_stored_entries(std::span<const index_t>(sorted), slice_height)};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 || !lab::is_box_mesh(argv[1]) || std::atoi(argv[2]) < 2) {
    std::fprintf(stderr, "usage: sell_padding hex|tet N   (an N³ box; tet: N³ · 6 cells)\n");
    return 2;
  }
  const amg::HostHierarchy h = lab::box_float_hierarchy(argv[1], std::atoi(argv[2]));
  if (h.levels.empty()) {
    std::fprintf(stderr, "sell_padding: the hierarchy has no level above its coarsest: take a larger N\n");
    return 2;
  }
  std::printf("stored entries per non-zero, rows as numbered / sorted in windows of %d slices\n",
              window_slices);
  std::printf("%-6s %-3s %10s %8s %20s %20s\n", "level", "", "rows", "nnz/row", "slices of 8", "slices of 32");
  const index_t heights[] = {8, 32};
  double cycle[2][2] = {};  // [height][as numbered, sorted]: bytes a cycle reads of its matrices
  for (std::size_t l = 0; l < h.levels.size(); ++l) {
    const amg::HostLevel& level = h.levels[l];
    const std::pair<const char*, const CsrMatrix*> matrices[] = {
        {"A", &level.a.host}, {"P", &level.prolongation.host}, {"R", &level.restriction.host}};
    for (const auto& [name, m] : matrices) {
      const double reads = name[0] == 'A' ? 2.0 : 1.0;
      std::printf("%-6zu %-3s %10d %8.1f", l, name, m->rows, static_cast<double>(m->nnz()) / m->rows);
      for (int k = 0; k < 2; ++k) {
        const Stored s = stored_entries(*m, heights[k]);
        std::printf("      %6.3f / %6.3f", static_cast<double>(s.as_numbered) / m->nnz(),
                    static_cast<double>(s.sorted) / m->nnz());
        cycle[k][0] += reads * 8.0 * static_cast<double>(s.as_numbered);
        cycle[k][1] += reads * 8.0 * static_cast<double>(s.sorted);
      }
      std::printf("\n");
    }
  }
  for (int k = 0; k < 2; ++k)
    std::printf("a cycle's matrix reads, slices of %d: %.1f MB as numbered, %.1f MB sorted (%.1f %% less)\n", heights[k],
                cycle[k][0] / 1e6, cycle[k][1] / 1e6, 100.0 * (1.0 - cycle[k][1] / cycle[k][0]));
}
