// Splitting the Laplacian of an extruded mesh into its 2D in-plane operator and its z couplings.
#include <algorithm>
#include <cmath>
#include <numbers>

#include "solvers/fft/extrusion.hpp"

namespace miniapp::fft {

namespace {

Error not_separable(index_t row, index_t col, const std::string& why) {
  return Error("FFT Poisson solver: the Laplacian is not L2d ⊗ I + diag ⊗ Lper: entry (" + std::to_string(row) +
               ", " + std::to_string(col) + ") " + why);
}

// L's entry (row, col), 0 when not stored.
double entry(const CsrMatrix& a, index_t row, index_t col) {
  const auto first = a.col.begin() + a.row_ptr[row], last = a.col.begin() + a.row_ptr[row + 1];
  const auto it = std::lower_bound(first, last, col);
  return it != last && *it == col ? a.val[static_cast<std::size_t>(it - a.col.begin())] : 0.0;
}

// L(i, twin above i) holds w once, or twice when Nper = 2 (the twin above is also the one below).
double z_coupling_of(const CsrMatrix& l, const Extrusion& e, index_t c2) {
  const double both = entry(l, e.at(c2, 0), e.at(c2, 1));
  return e.planes == 2 ? both / 2 : both;
}

// L2d from the rows of plane 0: in-plane entries as they are, diagonal corrected by 2 w.
PlaneOperator split_bottom_plane(const CsrMatrix& l, const Extrusion& e) {
  PlaneOperator op;
  op.z_coupling.resize(static_cast<std::size_t>(e.plane_cells));
  std::vector<Triplet> triplets;
  for (index_t c2 = 0; c2 < e.plane_cells; ++c2) {
    const double w = z_coupling_of(l, e, c2);
    op.z_coupling[c2] = w;
    const index_t row = e.at(c2, 0);
    for (index_t i = l.row_ptr[row]; i < l.row_ptr[row + 1]; ++i) {
      const index_t col = l.col[i];
      if (e.plane[col] != 0) continue;
      triplets.push_back({c2, e.cell_2d[col], col == row ? l.val[i] + 2 * w : l.val[i]});
    }
  }
  op.in_plane = csr_from_triplets(e.plane_cells, e.plane_cells, std::move(triplets));
  return op;
}

// Every entry of row `row` of L must be the one the split predicts (same in-plane value in every
// plane, w to the planes above and below, nothing further away); throws for the first that is not.
void check_row(const CsrMatrix& l, const Extrusion& e, const PlaneOperator& op, index_t row) {
  const index_t c2 = e.cell_2d[row], k = e.plane[row];
  const double scale = std::abs(entry(l, row, row)) + std::abs(op.z_coupling[c2]);
  const index_t up = e.at(c2, (k + 1) % e.planes), down = e.at(c2, (k + e.planes - 1) % e.planes);
  for (index_t i = l.row_ptr[row]; i < l.row_ptr[row + 1]; ++i) {
    const index_t col = l.col[i];
    double expected = 0;
    if (e.plane[col] == k) expected = entry(op.in_plane, c2, e.cell_2d[col]) - (col == row ? 2 * op.z_coupling[c2] : 0);
    if (col == up || col == down) {
      if (e.cell_2d[col] != c2) throw not_separable(row, col, "couples two columns across planes");
      expected += op.z_coupling[c2] * (up == down ? 2 : 1);
    } else if (e.plane[col] != k && l.val[i] != 0) {
      throw not_separable(row, col, "couples cells more than one plane apart or in different columns");
    }
    if (std::abs(l.val[i] - expected) > 1e-9 * scale)
      throw not_separable(row, col, "is " + std::to_string(l.val[i]) + " but " + std::to_string(expected) +
                                        " in plane 0: the operator differs between planes");
  }
}

// Every row checked, in parallel; the error is the first failing row's, whatever the thread count.
void check_split(const CsrMatrix& l, const Extrusion& e, const PlaneOperator& op) {
  index_t first_failing = l.rows;
#pragma omp parallel for schedule(static) reduction(min : first_failing)
  for (index_t row = 0; row < l.rows; ++row) {
    try {
      check_row(l, e, op, row);
    } catch (const Error&) {
      first_failing = std::min(first_failing, row);
    }
  }
  if (first_failing < l.rows) check_row(l, e, op, first_failing);
}

bool rows_sum_to_zero(const CsrMatrix& a) {
  for (index_t r = 0; r < a.rows; ++r) {
    double sum = 0, size = 0;
    for (index_t i = a.row_ptr[r]; i < a.row_ptr[r + 1]; ++i) sum += a.val[i], size += std::abs(a.val[i]);
    if (std::abs(sum) > 1e-12 * size) return false;
  }
  return true;
}

}  // namespace

PlaneOperator split_extruded_operator(const CsrMatrix& l, const Extrusion& e) {
  if (l.rows != l.cols || static_cast<std::size_t>(l.rows) != e.cell_2d.size())
    throw Error("FFT Poisson solver: the Laplacian is " + std::to_string(l.rows) + " × " + std::to_string(l.cols) +
                " but the extruded mesh has " + std::to_string(e.cell_2d.size()) + " cells");
  PlaneOperator op = split_bottom_plane(l, e);
  check_split(l, e, op);
  for (std::size_t c = 0; c < op.z_coupling.size(); ++c)
    if (!(op.z_coupling[c] > 0))
      throw Error("FFT Poisson solver: 2D cell " + std::to_string(c) + " has z coupling " +
                  std::to_string(op.z_coupling[c]) + "; a Laplacian has a positive one");
  op.singular = rows_sum_to_zero(op.in_plane);
  return op;
}

double periodic_eigenvalue(index_t k, index_t planes) {
  const double s = std::sin(std::numbers::pi * k / planes);
  return -4 * s * s;
}

}  // namespace miniapp::fft
