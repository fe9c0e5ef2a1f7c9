// How AMG's restriction R reads the finer vector, for thinking about its layout on a GPU (docs/amg.md,
// What bounds R): on the CPU, for −L of an n³ box in the solver's row order (a generated box's lattice
// order, rows grouped by length; or, with `rcm`, row_grouping_rcm's, a read mesh's) and its
// hierarchy with float storage, for R₀ and R₁
// - how much blocks of B consecutive rows share: Σ over blocks of the distinct columns a block reads,
//   per non-zero (1: nothing shared), and how many 32-byte sectors of x those columns fill, per column;
//   also with R's rows numbered by the next level's aggregates (AMG's own numbering of its levels);
// - a simple count of what one warp-wide load instruction of its gathers touches: distinct sectors of
//   x per non-zero with a thread per row (sELL's slices of 32, padding included) and with G lanes per
//   row (a row's entries side by side), as numbered and with the finer rows numbered by aggregate (each
//   column's largest entry). The count ignores the L1, which on an H200 already serves the repeats
//   between a warp's instructions: it did not predict the L2 traffic of G = 8 lanes (docs/amg.md);
// - R split into blocks of C consecutive columns, each block's slice of the finer vector read once
//   into shared memory and its rows' partial sums gathered from there, then each row's partials summed
//   in a fixed order (a form whose gathers leave the L2 and whose sums repeat bit for bit): partial
//   sums per row, and the bytes it moves against R's as built, per non-zero.
// With `float`, the sectors are those of a finer vector stored in float (8 entries a sector, not 4).
// Usage: restriction_layout hex|tet N [rcm] [float]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <string>
#include <vector>

#include "tools/cpu/box_hierarchy.hpp"

using namespace miniapp;

namespace {

index_t entries_per_sector = 4;  // of the finer vector: doubles, or floats with `float`

index_t distinct(std::vector<index_t>& v) {
  std::sort(v.begin(), v.end());
  return static_cast<index_t>(std::unique(v.begin(), v.end()) - v.begin());
}

void block_sharing(const CsrMatrix& r, const char* rows) {
  std::printf("  blocks of B rows, %s: distinct columns per non-zero, sectors per column, widest block\n", rows);
  std::vector<index_t> cols, sectors;
  for (const index_t block : {64, 128, 256, 512}) {
    double columns = 0, sector_count = 0;
    index_t widest = 0;
    for (index_t first = 0; first < r.rows; first += block) {
      const index_t end = std::min(r.rows, first + block);
      cols.assign(r.col.begin() + r.row_ptr[first], r.col.begin() + r.row_ptr[end]);
      const index_t u = distinct(cols);
      sectors.resize(static_cast<std::size_t>(u));
      for (index_t k = 0; k < u; ++k) sectors[k] = cols[k] / entries_per_sector;
      columns += u;
      sector_count += distinct(sectors);
      widest = std::max(widest, u);
    }
    std::printf("    B = %3d: %.3f, %.2f, %d\n", block, columns / r.nnz(), sector_count / columns, widest);
  }
}

// Bytes of b = R x as built (float values and 4-byte columns, x and b in double) against R in blocks
// of C columns: float values and 2-byte columns within the block, x read once, and per partial sum its
// slot (4 bytes), its write and its read (8 each); per row of b also the partials' offset (4 bytes).
void column_blocks(const CsrMatrix& r) {
  std::printf("  blocks of C columns: partial sums per row, bytes against R as built\n");
  const double built = 8.0 * r.nnz() + 8.0 * r.cols + 8.0 * r.rows;
  std::vector<index_t> blocks;
  for (const index_t c : {4096, 8192, 16384, 28672}) {
    double partials = 0;
    for (index_t i = 0; i < r.rows; ++i) {
      blocks.clear();
      for (index_t p = r.row_ptr[i]; p < r.row_ptr[i + 1]; ++p) blocks.push_back(r.col[p] / c);
      partials += distinct(blocks);
    }
    const double blocked = 6.0 * r.nnz() + 8.0 * r.cols + 20.0 * partials + 12.0 * r.rows;
    std::printf("    C = %5d: %.2f, %.3f\n", c, partials / r.rows, blocked / built);
  }
}

// Each row's sectors of x, sorted, its columns renumbered by `map`.
std::vector<std::vector<index_t>> row_sectors(const CsrMatrix& r, const std::vector<index_t>& map) {
  std::vector<std::vector<index_t>> rows(static_cast<std::size_t>(r.rows));
  for (index_t i = 0; i < r.rows; ++i) {
    for (index_t p = r.row_ptr[i]; p < r.row_ptr[i + 1]; ++p) rows[i].push_back(map[r.col[p]] / entries_per_sector);
    std::sort(rows[i].begin(), rows[i].end());
  }
  return rows;
}

// Distinct sectors per non-zero touched by each warp-wide instruction: a thread per row (step k of 32
// rows, a row past its end repeating its last entry as sELL's padding does) or `lanes` lanes per row
// (32 / lanes rows a warp, a row's entries side by side).
double sectors_per_nonzero(const std::vector<std::vector<index_t>>& rows, index_t nnz, int lanes) {
  const auto n = static_cast<index_t>(rows.size()), rows_per_warp = lanes == 1 ? 32 : 32 / lanes;
  double total = 0;
  std::vector<index_t> touched;
  for (index_t w = 0; w < n; w += rows_per_warp) {
    const index_t end = std::min(n, w + rows_per_warp);
    std::size_t rounds = 0;
    for (index_t i = w; i < end; ++i) rounds = std::max(rounds, (rows[i].size() + lanes - 1) / lanes);
    for (std::size_t k = 0; k < rounds; ++k) {
      touched.clear();
      for (index_t i = w; i < end; ++i) {
        const std::vector<index_t>& row = rows[i];
        if (lanes == 1) {
          if (!row.empty()) touched.push_back(row[std::min(k, row.size() - 1)]);
        } else {
          for (std::size_t e = k * lanes; e < std::min(row.size(), (k + 1) * lanes); ++e) touched.push_back(row[e]);
        }
      }
      total += distinct(touched);
    }
  }
  return total / nnz;
}

// Finer row → its number when the finer rows are sorted by aggregate (the row of R holding the
// column's largest entry), in their order within an aggregate.
std::vector<index_t> numbered_by_aggregate(const CsrMatrix& r) {
  std::vector<index_t> aggregate(static_cast<std::size_t>(r.cols), -1), order(static_cast<std::size_t>(r.cols));
  std::vector<double> largest(static_cast<std::size_t>(r.cols), -1.0);
  for (index_t i = 0; i < r.rows; ++i)
    for (index_t p = r.row_ptr[i]; p < r.row_ptr[i + 1]; ++p)
      if (r.val[p] > largest[r.col[p]]) largest[r.col[p]] = r.val[p], aggregate[r.col[p]] = i;
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](index_t a, index_t b) { return aggregate[a] < aggregate[b]; });
  std::vector<index_t> map(static_cast<std::size_t>(r.cols));
  for (index_t k = 0; k < r.cols; ++k) map[order[k]] = k;
  return map;
}

}  // namespace

int main(int argc, char** argv) {
  bool rcm = false, valid = argc >= 3 && argc <= 5;
  for (int a = 3; a < argc; ++a) {
    const std::string option = argv[a];
    if (option == "rcm") rcm = true;
    else if (option == "float") entries_per_sector = 8;
    else valid = false;
  }
  if (!valid || !lab::is_box_mesh(argv[1]) || std::atoi(argv[2]) < 2) {
    std::fprintf(stderr, "usage: restriction_layout hex|tet N [rcm] [float]   (an N³ box; tet: N³ · 6 cells)\n");
    return 2;
  }
  const amg::HostHierarchy h = lab::box_float_hierarchy(argv[1], std::atoi(argv[2]), rcm);
  for (std::size_t l = 0; l < 2 && l < h.levels.size(); ++l) {
    const CsrMatrix& r = h.levels[l].restriction.host;
    std::printf("R%zu: %d x %d, %.1f non-zeros a row\n", l, r.rows, r.cols, static_cast<double>(r.nnz()) / r.rows);
    block_sharing(r, "as numbered");
    column_blocks(r);
    if (l + 1 < h.levels.size()) {
      // R's rows (the coarser level's) numbered by the next level's aggregates: neighbours in space.
      const std::vector<index_t> next = numbered_by_aggregate(h.levels[l + 1].restriction.host);
      std::vector<index_t> new_to_old(static_cast<std::size_t>(r.rows));
      for (index_t i = 0; i < r.rows; ++i) new_to_old[next[i]] = i;
      block_sharing(permute_rows(r, Permutation::from_new_to_old(std::move(new_to_old))), "by the next level's aggregate");
    }
    std::vector<index_t> identity(static_cast<std::size_t>(r.cols));
    std::iota(identity.begin(), identity.end(), 0);
    std::printf("  sectors per non-zero, a load instruction at a time: lanes a row 1 / 8 / 32\n");
    for (const auto& [name, map] : {std::pair{"as numbered", identity}, std::pair{"by aggregate", numbered_by_aggregate(r)}}) {
      const std::vector<std::vector<index_t>> rows = row_sectors(r, map);
      std::printf("    %-12s %.3f / %.3f / %.3f\n", name, sectors_per_nonzero(rows, r.nnz(), 1),
                  sectors_per_nonzero(rows, r.nnz(), 8), sectors_per_nonzero(rows, r.nnz(), 32));
    }
  }
}
