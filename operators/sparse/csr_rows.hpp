#pragma once
#include <omp.h>

#include <algorithm>
#include <vector>

#include "core/parallel_exceptions.hpp"
#include "operators/sparse/csr_matrix.hpp"

namespace miniapp {

// Sizes col and val of `a` for `entries` non-zeros (and row_ptr for a.rows rows, unless it has that size
// already), called by every thread of a parallel region (an orphaned worksharing construct; it ends at
// the team's barrier). The new entries are left unwritten (CsrMatrix's arrays do not zero-fill): the
// threads that write them first touch their pages, in parallel; row_ptr[0] stays 0. An allocation
// failure is kept in `errors`.
inline void resize_entries_in_team(CsrMatrix& a, std::size_t entries, ParallelExceptions& errors) {
#pragma omp sections
  {
#pragma omp section
    errors.guard([&] { a.val.resize(entries); });  // the largest first: sections are handed out in order
#pragma omp section
    errors.guard([&] { a.col.resize(entries); });
#pragma omp section
    errors.guard([&] { a.row_ptr.resize(static_cast<std::size_t>(a.rows) + 1); });  // no-op if sized
  }
}

// row_ptr[r + 1], the length of row r, becomes the offset where row r + 1 starts (row_ptr[0] is 0), by
// every thread of a parallel region: running sums over one block of rows per thread, then each block's
// start added. Integer sums, so the offsets are those of the serial loop on any thread count.
// `block_sum` (shared) holds omp_get_num_threads() + 1 entries. Ends at the team's barrier.
inline void lengths_to_offsets_in_team(UninitializedVector<index_t>& row_ptr, std::vector<index_t>& block_sum) {
  const auto t = static_cast<std::size_t>(omp_get_thread_num()), n = static_cast<std::size_t>(omp_get_num_threads());
  const std::size_t rows = row_ptr.size() - 1, begin = rows * t / n + 1, end = rows * (t + 1) / n + 1;
  index_t sum = 0;
  for (std::size_t i = begin; i < end; ++i) row_ptr[i] = sum += row_ptr[i];
  block_sum[t + 1] = sum;
#pragma omp barrier
#pragma omp single
  for (std::size_t b = 0; b < n; ++b) block_sum[b + 1] += block_sum[b];
  for (std::size_t i = begin; i < end; ++i) row_ptr[i] += block_sum[t];
#pragma omp barrier
}

// The entries of consecutive rows, appended by a row builder of csr_from_rows.
struct RowEntries {
  std::vector<index_t> col;
  std::vector<double> val;

  void push(index_t c, double v) {
    col.push_back(c);
    val.push_back(v);
  }
  std::size_t size() const { return col.size(); }
};

// The per-thread buffers of csr_from_rows. Passed from one call to the next (a set-up that builds many
// matrices), they keep their memory: pages touched once are not faulted in again for every matrix.
using RowBlocks = std::vector<RowEntries>;

// Buffers for csr_from_rows's threads with room for `entries` in all, so that matrices up to that size
// do not regrow them (a copy each time); the room is address space only until rows are written to it.
inline RowBlocks row_blocks_with_room(std::size_t entries) {
  RowBlocks blocks(static_cast<std::size_t>(omp_get_max_threads()));
  for (RowEntries& block : blocks) {
    block.col.reserve(entries / blocks.size());
    block.val.reserve(entries / blocks.size());
  }
  return blocks;
}

// Builds a rows × cols CSR matrix whose rows are computed independently. make_row_fn() makes the row
// function of one thread (which may keep scratch space); row_fn(r, out) appends the entries of row r
// to `out`, columns sorted and unique. OpenMP threads each build a contiguous block of rows into their
// own buffer, then copy it into place: one pass over the work, no triplets, and a result that does not
// depend on the thread count; `reuse`, when given, keeps those buffers between calls. An exception of a
// row function or an allocation (out of memory) is rethrown after the threads have ended
// (ParallelExceptions): that of the lowest row that threw, as a loop over the rows in order would have
// thrown it (blocks are in row order, each stops at its first).
template <class MakeRowFn>
CsrMatrix csr_from_rows(index_t rows, index_t cols, MakeRowFn make_row_fn, RowBlocks* reuse = nullptr) {
  CsrMatrix a;
  a.rows = rows;
  a.cols = cols;
  a.row_ptr.resize(static_cast<std::size_t>(rows) + 1);  // row_ptr[0] is 0; the threads write the rest
  RowBlocks own;
  RowBlocks& blocks = reuse ? *reuse : own;
  blocks.resize(static_cast<std::size_t>(omp_get_max_threads()));
  std::vector<std::size_t> block_offset(blocks.size() + 1, 0);
  ParallelExceptions errors;
#pragma omp parallel num_threads(static_cast<int>(blocks.size()))
  {
    const auto t = static_cast<std::size_t>(omp_get_thread_num()), n = static_cast<std::size_t>(omp_get_num_threads());
    const auto begin = static_cast<index_t>(rows * t / n), end = static_cast<index_t>(rows * (t + 1) / n);
    RowEntries& block = blocks[t];
    errors.guard_at(begin, [&] {
      auto row_fn = make_row_fn();
      for (index_t r = begin; r < end; ++r) {
        row_fn(r, block);
        a.row_ptr[r + 1] = static_cast<index_t>(block.size());  // within the block; shifted below
      }
    });
    block_offset[t + 1] = block.size();
#pragma omp barrier
#pragma omp single
    for (std::size_t b = 0; b < blocks.size(); ++b) block_offset[b + 1] += block_offset[b];
    resize_entries_in_team(a, block_offset.back(), errors);  // by every thread (skipped after a failure)
    if (!errors.failed()) {
      const std::size_t offset = block_offset[t];
      for (index_t r = begin; r < end; ++r) a.row_ptr[r + 1] += static_cast<index_t>(offset);
      std::copy(block.col.begin(), block.col.end(), a.col.begin() + static_cast<std::ptrdiff_t>(offset));
      std::copy(block.val.begin(), block.val.end(), a.val.begin() + static_cast<std::ptrdiff_t>(offset));
    }
    if (reuse) {
      block.col.clear();
      block.val.clear();
    } else {
      block = RowEntries{};
    }
  }
  errors.rethrow();
  checked_index(a.col.size(), "csr_from_rows: non-zeros");
  return a;
}

}  // namespace miniapp
