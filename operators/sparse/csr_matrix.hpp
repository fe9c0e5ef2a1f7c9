#pragma once
#include <utility>
#include <vector>

#include "core/default_init_allocator.hpp"
#include "core/types.hpp"

namespace miniapp {

// Compressed sparse row matrix on the host: the assembly format of every operator. Column indices
// are sorted within each row and unique. Its arrays' resize(n) leaves new entries unwritten (the
// builders write every entry, in parallel): resize(n, 0) where zeros are meant.
struct CsrMatrix {
  index_t rows = 0, cols = 0;
  UninitializedVector<index_t> row_ptr{0};  // size rows + 1
  UninitializedVector<index_t> col;
  UninitializedVector<double> val;

  index_t nnz() const { return static_cast<index_t>(col.size()); }
  index_t row_length(index_t r) const { return row_ptr[r + 1] - row_ptr[r]; }
};

// Builds a CSR matrix from (row, col, value) triplets; rows sorted by column, duplicates summed in
// the order given.
struct Triplet {
  index_t row, col;
  double val;
};
CsrMatrix csr_from_triplets(index_t rows, index_t cols, std::vector<Triplet> triplets);

// The n entries (col[i], val[i]) of one row, in place: sorted by column (stably) and duplicates summed
// in that order, as csr_from_triplets does. Returns how many entries remain. `scratch` is reused space.
index_t sort_and_merge_entries(index_t* col, double* val, index_t n, std::vector<std::pair<index_t, double>>& scratch);

// A matrix of a's shape, offsets and columns (copied by the threads), its values sized and unwritten.
CsrMatrix with_pattern_of(const CsrMatrix& a);
// −A and |A|, every array written by the threads (a copy by the arrays' copy constructors is one
// thread's, and first touches the pages there).
CsrMatrix negated(const CsrMatrix& a);
CsrMatrix absolute(const CsrMatrix& a);
CsrMatrix transpose(const CsrMatrix& a);
// Whether a and b have the same shape, row offsets and columns.
bool same_pattern(const CsrMatrix& a, const CsrMatrix& b);
// Whether a is square and stores (j, i) wherever it stores (i, j).
bool has_symmetric_pattern(const CsrMatrix& a);
// transpose(a), bitwise, for a square matrix whose pattern is symmetric ((i, j) stored where (j, i) is,
// as in the finite-volume operators between cells): the same offsets and columns, each value read from
// its mirror entry, every row in parallel without counting or scattering; where an entry has no
// mirror, transpose(a).
CsrMatrix transpose_symmetric_pattern(const CsrMatrix& a);
// C = A · B (host sparse product, for building operators at pre-processing).
CsrMatrix multiply(const CsrMatrix& a, const CsrMatrix& b);
// The k matrices whose columns `a` interleaves (a.cols = k · n): part d holds a's entries of the columns
// k·j + d as its column j, in their order. Lets one product build k matrices that share a left factor,
// A [B_0 B_1 …] with B's columns interleaved, reading A and each row of B once instead of k times.
std::vector<CsrMatrix> split_interleaved_columns(const CsrMatrix& a, index_t k);
// y = A x on the host: the plain reference the backends are tested against.
std::vector<double> reference_spmv(const CsrMatrix& a, const std::vector<double>& x);

}  // namespace miniapp
