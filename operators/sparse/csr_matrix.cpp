#include "operators/sparse/csr_matrix.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <tuple>
#include <utility>

#include "core/parallel_copy.hpp"
#include "core/parallel_exceptions.hpp"
#include "operators/sparse/csr_compare.hpp"
#include "operators/sparse/csr_rows.hpp"

namespace miniapp {
namespace {

std::string shape(const CsrMatrix& a) { return std::to_string(a.rows) + "x" + std::to_string(a.cols); }

// Sorts and merges every row in place, in parallel; then, only if duplicates were merged, closes the
// gaps they left (rewriting row_ptr).
void sort_and_merge_rows(CsrMatrix& a) {
  std::vector<index_t> length(static_cast<std::size_t>(a.rows));
  bool merged = false;
  ParallelExceptions errors;  // the scratch row's allocation
#pragma omp parallel reduction(|| : merged)
  {
    std::vector<std::pair<index_t, double>> row;
#pragma omp for schedule(static)
    for (index_t r = 0; r < a.rows; ++r)
      errors.guard([&] {
        length[r] = sort_and_merge_entries(a.col.data() + a.row_ptr[r], a.val.data() + a.row_ptr[r], a.row_length(r), row);
        merged = merged || length[r] != a.row_length(r);
      });
  }
  errors.rethrow();
  if (!merged) return;
  index_t out = 0;
  for (index_t r = 0; r < a.rows; ++r) {
    const index_t begin = a.row_ptr[r];
    std::copy_n(a.col.begin() + begin, length[r], a.col.begin() + out);
    std::copy_n(a.val.begin() + begin, length[r], a.val.begin() + out);
    a.row_ptr[r] = out;
    out += length[r];
  }
  a.row_ptr[a.rows] = out;
  a.col.resize(out);
  a.val.resize(out);
}

// The products a_ik b_kj of row i of A·B, in the order of the loops, calling f(j, a_ik b_kj) until it
// returns false; returns whether all were visited.
template <class F>
bool for_each_product(const CsrMatrix& a, const CsrMatrix& b, index_t i, F f) {
  for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p)
    for (index_t q = b.row_ptr[a.col[p]]; q < b.row_ptr[a.col[p] + 1]; ++q)
      if (!f(b.col[q], a.val[p] * b.val[q])) return false;
  return true;
}

// Row i of A·B summed in `sums` (unsorted) by a linear search of its columns; false when it has more
// than a few columns (`sums` is then incomplete).
bool few_column_product_row(const CsrMatrix& a, const CsrMatrix& b, index_t i,
                            std::vector<std::pair<index_t, double>>& sums) {
  constexpr std::size_t few = 16;
  sums.clear();
  return for_each_product(a, b, i, [&](index_t j, double v) {
    auto it = std::find_if(sums.begin(), sums.end(), [&](const auto& e) { return e.first == j; });
    if (it == sums.end()) {
      if (sums.size() == few) return false;
      it = sums.insert(sums.end(), {j, 0.0});
    }
    it->second += v;
    return true;
  });
}

struct Product {
  index_t col, order;
  double val;
};

// Row i of A·B appended to `out` by sorting its products by (column, order).
void sorted_product_row(const CsrMatrix& a, const CsrMatrix& b, index_t i, std::vector<Product>& products,
                        RowEntries& out) {
  products.clear();
  for_each_product(a, b, i, [&](index_t j, double v) {
    products.push_back({j, static_cast<index_t>(products.size()), v});
    return true;
  });
  std::sort(products.begin(), products.end(),
            [](const Product& u, const Product& v) { return std::tie(u.col, u.order) < std::tie(v.col, v.order); });
  for (std::size_t k = 0; k < products.size();) {
    const index_t j = products[k].col;
    double sum = 0.0;
    for (; k < products.size() && products[k].col == j; ++k) sum += products[k].val;
    out.push(j, sum);
  }
}

}  // namespace

// Insertion sort for the few entries of a finite-volume row, a stable sort of pairs beyond.
index_t sort_and_merge_entries(index_t* col, double* val, index_t n, std::vector<std::pair<index_t, double>>& scratch) {
  constexpr index_t insertion_limit = 16;
  if (n <= insertion_limit) {
    for (index_t i = 1; i < n; ++i) {
      const index_t c = col[i];
      const double v = val[i];
      index_t j = i;
      for (; j > 0 && col[j - 1] > c; --j) {
        col[j] = col[j - 1];
        val[j] = val[j - 1];
      }
      col[j] = c;
      val[j] = v;
    }
  } else {
    scratch.clear();
    for (index_t i = 0; i < n; ++i) scratch.emplace_back(col[i], val[i]);
    std::stable_sort(scratch.begin(), scratch.end(), [](const auto& u, const auto& v) { return u.first < v.first; });
    for (index_t i = 0; i < n; ++i) std::tie(col[i], val[i]) = scratch[i];
  }
  index_t out = 0;
  for (index_t i = 0; i < n; ++i) {
    if (out > 0 && col[i] == col[out - 1]) {
      val[out - 1] += val[i];
      continue;
    }
    col[out] = col[i];
    val[out] = val[i];
    ++out;
  }
  return out;
}

// Counting sort by row (O(nnz + rows)), then a small sort inside each row: rows of FV operators hold
// a handful of entries, so the per-row sort is cheap.
CsrMatrix csr_from_triplets(index_t rows, index_t cols, std::vector<Triplet> triplets) {
  if (rows < 0 || cols < 0)
    throw Error("csr_from_triplets: negative shape " + std::to_string(rows) + "x" + std::to_string(cols));
  CsrMatrix a;
  a.rows = rows;
  a.cols = cols;
  a.row_ptr.assign(static_cast<std::size_t>(rows) + 1, 0);
  const index_t nnz = checked_index(triplets.size(), "csr_from_triplets: triplet count");
  for (index_t i = 0; i < nnz; ++i) {
    const Triplet& t = triplets[i];
    if (t.row < 0 || t.row >= rows || t.col < 0 || t.col >= cols)
      throw Error("csr_from_triplets: triplet " + std::to_string(i) + " at (" + std::to_string(t.row) + ", " +
                  std::to_string(t.col) + ") lies outside the " + shape(a) + " matrix");
    ++a.row_ptr[t.row + 1];
  }
  for (index_t r = 0; r < rows; ++r) a.row_ptr[r + 1] += a.row_ptr[r];
  a.col.resize(nnz);
  a.val.resize(nnz);
  std::vector<index_t> next(a.row_ptr.begin(), a.row_ptr.end() - 1);
  for (const Triplet& t : triplets) {
    const index_t p = next[t.row]++;
    a.col[p] = t.col;
    a.val[p] = t.val;
  }
  sort_and_merge_rows(a);
  return a;
}

double max_abs_difference(const CsrMatrix& a, const CsrMatrix& b) {
  if (a.rows != b.rows || a.cols != b.cols)
    throw Error("max_abs_difference: shapes differ (" + shape(a) + " and " + shape(b) + ")");
  double m = 0;
  for (index_t r = 0; r < a.rows; ++r) {
    index_t p = a.row_ptr[r], q = b.row_ptr[r];
    const index_t p_end = a.row_ptr[r + 1], q_end = b.row_ptr[r + 1];
    while (p < p_end || q < q_end) {  // merge the two sorted rows
      const bool take_a = q == q_end || (p < p_end && a.col[p] <= b.col[q]);
      const bool take_b = p == p_end || (q < q_end && b.col[q] <= a.col[p]);
      const double d = (take_a ? a.val[p++] : 0.0) - (take_b ? b.val[q++] : 0.0);
      m = std::max(m, std::abs(d));
      if (d != d) return d;  // NaN: no order, no maximum
    }
  }
  return m;
}

namespace {

// Aᵀ where per-thread column counts would outweigh the matrix (many columns, few entries each): the
// rows of Aᵀ counted and filled through atomic slots, in whatever order the threads reach them, then
// each sorted by column. A row of Aᵀ lists distinct rows of A, so once sorted it is the serial
// result, bitwise, on any thread count.
CsrMatrix transpose_by_slots(const CsrMatrix& a) {
  CsrMatrix t;
  t.rows = a.cols;
  t.cols = a.rows;
  std::vector<index_t> block_sum(static_cast<std::size_t>(omp_get_max_threads()) + 1, 0), next;
  ParallelExceptions errors;  // the arrays' allocations
#pragma omp parallel
  {
#pragma omp single
    errors.guard([&] {
      t.row_ptr.assign(static_cast<std::size_t>(a.cols) + 1, 0);
      next.resize(static_cast<std::size_t>(a.cols));
    });
    if (!errors.failed()) {
#pragma omp for schedule(static)
      for (std::size_t p = 0; p < a.col.size(); ++p)
        std::atomic_ref<index_t>(t.row_ptr[static_cast<std::size_t>(a.col[p]) + 1]).fetch_add(1, std::memory_order_relaxed);
      lengths_to_offsets_in_team(t.row_ptr, block_sum);
#pragma omp for schedule(static)
      for (index_t c = 0; c < a.cols; ++c) next[c] = t.row_ptr[c];
    }
    resize_entries_in_team(t, errors.failed() ? 0 : a.col.size(), errors);
    if (!errors.failed()) {
#pragma omp for schedule(static)
      for (index_t r = 0; r < a.rows; ++r)
        for (index_t p = a.row_ptr[r]; p < a.row_ptr[r + 1]; ++p) {
          const index_t q = std::atomic_ref<index_t>(next[a.col[p]]).fetch_add(1, std::memory_order_relaxed);
          t.col[q] = r;
          t.val[q] = a.val[p];
        }
      // Sorted in place; nothing to merge (a row's columns are distinct).
      std::vector<std::pair<index_t, double>> scratch;
#pragma omp for schedule(dynamic, 4096)
      for (index_t c = 0; c < t.rows; ++c)
        sort_and_merge_entries(t.col.data() + t.row_ptr[c], t.val.data() + t.row_ptr[c], t.row_length(c), scratch);
    }
  }
  errors.rethrow();
  return t;
}

}  // namespace

// Scatter by column: visiting rows in order leaves the columns of every transposed row sorted. In
// parallel, each thread scatters a contiguous block of rows into the slots after those of the blocks
// before it (per-thread column counts), so the result is the serial one; where those counts would
// outweigh the matrix (many columns, few entries), through atomic slots (transpose_by_slots). The
// arrays are sized (zero-filled) by different threads at once while the others count, and the counts
// zeroed by the thread that owns them.
CsrMatrix transpose(const CsrMatrix& a) {
  CsrMatrix t;
  t.rows = a.cols;
  t.cols = a.rows;
  const auto cols = static_cast<std::size_t>(a.cols);
  const int threads = omp_get_max_threads();
  if (threads > 1 && cols * static_cast<std::size_t>(threads) > 4 * a.col.size()) return transpose_by_slots(a);
  // Per thread: counts, then slots.
  const std::unique_ptr<index_t[]> next(new index_t[cols * static_cast<std::size_t>(threads)]);
  std::vector<index_t> block_sum(static_cast<std::size_t>(threads) + 1, 0);
  ParallelExceptions errors;  // the arrays' allocations
#pragma omp parallel num_threads(threads)
  {
    const auto n = static_cast<index_t>(omp_get_num_threads()), id = static_cast<index_t>(omp_get_thread_num());
    const index_t begin = static_cast<index_t>(static_cast<std::int64_t>(a.rows) * id / n),
                  end = static_cast<index_t>(static_cast<std::int64_t>(a.rows) * (id + 1) / n);
    index_t* mine = next.get() + cols * static_cast<std::size_t>(id);
    std::fill_n(mine, cols, 0);
    for (index_t p = a.row_ptr[begin]; p < a.row_ptr[end]; ++p) ++mine[a.col[p]];
    resize_entries_in_team(t, a.col.size(), errors);  // ends at a barrier: the counts are complete
    if (!errors.failed()) {
#pragma omp for schedule(static)
      for (index_t c = 0; c < a.cols; ++c) {
        index_t count = 0;
        for (index_t b = 0; b < n; ++b) {
          index_t& slot = next[cols * static_cast<std::size_t>(b) + static_cast<std::size_t>(c)];
          const index_t block = slot;
          slot = count;  // the block's first slot within the column, before the column's offset is known
          count += block;
        }
        t.row_ptr[c + 1] = count;
      }
      lengths_to_offsets_in_team(t.row_ptr, block_sum);
      for (index_t r = begin; r < end; ++r)
        for (index_t p = a.row_ptr[r]; p < a.row_ptr[r + 1]; ++p) {
          const index_t q = t.row_ptr[a.col[p]] + mine[a.col[p]]++;
          t.col[q] = r;
          t.val[q] = a.val[p];
        }
    }
  }
  errors.rethrow();
  return t;
}

CsrMatrix with_pattern_of(const CsrMatrix& a) {
  CsrMatrix b;
  b.rows = a.rows;
  b.cols = a.cols;
  b.row_ptr.resize(a.row_ptr.size());
  b.col.resize(a.col.size());
  b.val.resize(a.val.size());
  copy_in_parallel(b.row_ptr.data(), a.row_ptr.data(), sizeof(index_t) * a.row_ptr.size());
  copy_in_parallel(b.col.data(), a.col.data(), sizeof(index_t) * a.col.size());
  return b;
}

namespace {

// a's pattern with each value f(a's value).
template <class F>
CsrMatrix with_mapped_values(const CsrMatrix& a, F f) {
  CsrMatrix b = with_pattern_of(a);
#pragma omp parallel for schedule(static)
  for (std::size_t p = 0; p < a.val.size(); ++p) b.val[p] = f(a.val[p]);
  return b;
}

}  // namespace

CsrMatrix negated(const CsrMatrix& a) {
  return with_mapped_values(a, [](double v) { return -v; });
}

CsrMatrix absolute(const CsrMatrix& a) {
  return with_mapped_values(a, [](double v) { return std::abs(v); });
}

namespace {

// The position of entry p's mirror (j, i) in row j of a square matrix (entry p is (i, j)), or -1.
std::ptrdiff_t mirror_position(const CsrMatrix& a, index_t i, index_t p) {
  const index_t j = a.col[p];
  const auto first = a.col.begin() + a.row_ptr[j], last = a.col.begin() + a.row_ptr[j + 1];
  const auto mirror = std::lower_bound(first, last, i);
  return mirror == last || *mirror != i ? -1 : mirror - a.col.begin();
}

}  // namespace

bool same_pattern(const CsrMatrix& a, const CsrMatrix& b) {
  return a.rows == b.rows && a.cols == b.cols && a.row_ptr == b.row_ptr && a.col == b.col;
}

bool has_symmetric_pattern(const CsrMatrix& a) {
  if (a.rows != a.cols) return false;
  bool mirrored = true;
#pragma omp parallel for schedule(static) reduction(&& : mirrored)
  for (index_t i = 0; i < a.rows; ++i)
    for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) mirrored = mirrored && mirror_position(a, i, p) >= 0;
  return mirrored;
}

CsrMatrix transpose_symmetric_pattern(const CsrMatrix& a) {
  if (a.rows != a.cols) return transpose(a);
  CsrMatrix t = with_pattern_of(a);
  bool mirrored = true;
#pragma omp parallel for schedule(static) reduction(&& : mirrored)
  for (index_t i = 0; i < a.rows; ++i)
    for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) {
      const std::ptrdiff_t mirror = mirror_position(a, i, p);
      if (mirror < 0) {
        mirrored = false;
        continue;
      }
      t.val[p] = a.val[static_cast<std::size_t>(mirror)];
    }
  return mirrored ? t : transpose(a);
}

// Row i of C = A·B sums, per column j, the products a_ik b_kj in the order (p, q) of the two loops,
// starting from 0.0: the additions of a dense Gustavson accumulator, without its O(B.cols) arrays, so
// that rows are independent and built in parallel. Rows of finite-volume operators have a handful of
// columns, found by a linear search; a row with more (AIP patterns of level 2 and 3) sorts its
// products by (column, order) instead.
CsrMatrix multiply(const CsrMatrix& a, const CsrMatrix& b) {
  if (a.cols != b.rows)
    throw Error("multiply: inner dimensions differ (" + shape(a) + " times " + shape(b) + ")");
  return csr_from_rows(a.rows, b.cols, [&] {
    return [&a, &b, sums = std::vector<std::pair<index_t, double>>(), products = std::vector<Product>()](
               index_t i, RowEntries& out) mutable {
      if (!few_column_product_row(a, b, i, sums)) return sorted_product_row(a, b, i, products, out);
      std::sort(sums.begin(), sums.end(), [](const auto& u, const auto& v) { return u.first < v.first; });
      for (const auto& [j, v] : sums) out.push(j, v);
    };
  });
}

std::vector<CsrMatrix> split_interleaved_columns(const CsrMatrix& a, index_t k) {
  if (k < 1 || a.cols % k != 0)
    throw Error("split_interleaved_columns: " + std::to_string(a.cols) + " columns are not " + std::to_string(k) +
                " interleaved matrices");
  const auto parts_count = static_cast<std::size_t>(k);
  std::vector<CsrMatrix> parts(parts_count);
  for (CsrMatrix& part : parts) {
    part.rows = a.rows;
    part.cols = a.cols / k;
    part.row_ptr.resize(static_cast<std::size_t>(a.rows) + 1);  // row_ptr[0] is 0
  }
  std::vector<std::vector<index_t>> block_sums(parts_count,
                                               std::vector<index_t>(static_cast<std::size_t>(omp_get_max_threads()) + 1));
  ParallelExceptions errors;  // the arrays' allocations
#pragma omp parallel
  {
#pragma omp for schedule(static)
    for (index_t r = 0; r < a.rows; ++r) {
      for (CsrMatrix& part : parts) part.row_ptr[r + 1] = 0;
      for (index_t p = a.row_ptr[r]; p < a.row_ptr[r + 1]; ++p) ++parts[static_cast<std::size_t>(a.col[p] % k)].row_ptr[r + 1];
    }
    for (std::size_t d = 0; d < parts_count; ++d) {
      lengths_to_offsets_in_team(parts[d].row_ptr, block_sums[d]);
      resize_entries_in_team(parts[d], static_cast<std::size_t>(parts[d].row_ptr[a.rows]), errors);
    }
    if (!errors.failed()) {
      std::vector<index_t> next(parts_count);  // per part, where row r's next entry goes
#pragma omp for schedule(static)
      for (index_t r = 0; r < a.rows; ++r) {
        for (std::size_t d = 0; d < parts_count; ++d) next[d] = parts[d].row_ptr[r];
        for (index_t p = a.row_ptr[r]; p < a.row_ptr[r + 1]; ++p) {
          const auto d = static_cast<std::size_t>(a.col[p] % k);
          const index_t q = next[d]++;
          parts[d].col[q] = a.col[p] / k;
          parts[d].val[q] = a.val[p];
        }
      }
    }
  }
  errors.rethrow();
  return parts;
}

std::vector<double> reference_spmv(const CsrMatrix& a, const std::vector<double>& x) {
  if (x.size() != static_cast<std::size_t>(a.cols))
    throw Error("reference_spmv: x has " + std::to_string(x.size()) + " entries, the " + shape(a) +
                " matrix needs " + std::to_string(a.cols));
  std::vector<double> y(static_cast<std::size_t>(a.rows), 0.0);
  // Each row summed in order by one thread: the same result on any thread count.
#pragma omp parallel for schedule(static)
  for (index_t r = 0; r < a.rows; ++r) {
    double sum = 0.0;
    for (index_t p = a.row_ptr[r]; p < a.row_ptr[r + 1]; ++p) sum += a.val[p] * x[a.col[p]];
    y[r] = sum;
  }
  return y;
}

}  // namespace miniapp
