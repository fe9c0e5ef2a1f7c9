#include "operators/sparse/csr_matrix.hpp"

#include <algorithm>
#include <string>
#include <utility>

namespace miniapp {
namespace {

std::string shape(const CsrMatrix& a) { return std::to_string(a.rows) + "x" + std::to_string(a.cols); }

// Sorts the entries of each row by column and sums duplicates in place; row_ptr is rewritten.
void sort_and_merge_rows(CsrMatrix& a) {
  std::vector<std::pair<index_t, double>> row;
  index_t out = 0;
  for (index_t r = 0; r < a.rows; ++r) {
    row.clear();
    for (index_t p = a.row_ptr[r]; p < a.row_ptr[r + 1]; ++p) row.emplace_back(a.col[p], a.val[p]);
    std::sort(row.begin(), row.end(), [](const auto& u, const auto& v) { return u.first < v.first; });
    a.row_ptr[r] = out;
    for (std::size_t i = 0; i < row.size(); ++i) {
      if (i > 0 && row[i].first == row[i - 1].first) {
        a.val[out - 1] += row[i].second;
        continue;
      }
      a.col[out] = row[i].first;
      a.val[out] = row[i].second;
      ++out;
    }
  }
  a.row_ptr[a.rows] = out;
  a.col.resize(out);
  a.val.resize(out);
}

}  // namespace

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

// Scatter by column: visiting rows in order leaves the columns of every transposed row sorted.
CsrMatrix transpose(const CsrMatrix& a) {
  CsrMatrix t;
  t.rows = a.cols;
  t.cols = a.rows;
  t.row_ptr.assign(static_cast<std::size_t>(a.cols) + 1, 0);
  for (index_t c : a.col) ++t.row_ptr[c + 1];
  for (index_t r = 0; r < t.rows; ++r) t.row_ptr[r + 1] += t.row_ptr[r];
  t.col.resize(a.col.size());
  t.val.resize(a.val.size());
  std::vector<index_t> next(t.row_ptr.begin(), t.row_ptr.end() - 1);
  for (index_t r = 0; r < a.rows; ++r)
    for (index_t p = a.row_ptr[r]; p < a.row_ptr[r + 1]; ++p) {
      const index_t q = next[a.col[p]]++;
      t.col[q] = r;
      t.val[q] = a.val[p];
    }
  return t;
}

// Gustavson's row-wise product: row i of C accumulates a_ik · (row k of B) in a dense accumulator of
// length B.cols; `marker` records which columns row i has touched so nothing is cleared in O(cols).
// Cost O(flops + nnz(C) log(row length)), memory O(B.cols).
CsrMatrix multiply(const CsrMatrix& a, const CsrMatrix& b) {
  if (a.cols != b.rows)
    throw Error("multiply: inner dimensions differ (" + shape(a) + " times " + shape(b) + ")");
  CsrMatrix c;
  c.rows = a.rows;
  c.cols = b.cols;
  c.row_ptr.assign(static_cast<std::size_t>(a.rows) + 1, 0);
  std::vector<double> acc(static_cast<std::size_t>(b.cols), 0.0);
  std::vector<index_t> marker(static_cast<std::size_t>(b.cols), -1);
  std::vector<index_t> touched;
  for (index_t i = 0; i < a.rows; ++i) {
    touched.clear();
    for (index_t p = a.row_ptr[i]; p < a.row_ptr[i + 1]; ++p) {
      const index_t k = a.col[p];
      const double aik = a.val[p];
      for (index_t q = b.row_ptr[k]; q < b.row_ptr[k + 1]; ++q) {
        const index_t j = b.col[q];
        if (marker[j] != i) {
          marker[j] = i;
          acc[j] = 0.0;
          touched.push_back(j);
        }
        acc[j] += aik * b.val[q];
      }
    }
    std::sort(touched.begin(), touched.end());
    for (index_t j : touched) {
      c.col.push_back(j);
      c.val.push_back(acc[j]);
    }
    c.row_ptr[i + 1] = checked_index(c.col.size(), "multiply: non-zeros of the product");
  }
  return c;
}

std::vector<double> reference_spmv(const CsrMatrix& a, const std::vector<double>& x) {
  if (x.size() != static_cast<std::size_t>(a.cols))
    throw Error("reference_spmv: x has " + std::to_string(x.size()) + " entries, the " + shape(a) +
                " matrix needs " + std::to_string(a.cols));
  std::vector<double> y(static_cast<std::size_t>(a.rows), 0.0);
  for (index_t r = 0; r < a.rows; ++r) {
    double sum = 0.0;
    for (index_t p = a.row_ptr[r]; p < a.row_ptr[r + 1]; ++p) sum += a.val[p] * x[a.col[p]];
    y[r] = sum;
  }
  return y;
}

}  // namespace miniapp
