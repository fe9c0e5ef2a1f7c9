#pragma once
#include <optional>
#include <vector>

#include "operators/sparse/csr_rows.hpp"
#include "solvers/amg/aggregation.hpp"

namespace miniapp::amg {

// The tentative prolongation T: rows × aggregates, T_ij = 1 where row i lies in aggregate j. It
// reproduces the constants (T 1 = 1), the null space of a Laplacian.
CsrMatrix tentative_prolongation(const Aggregates& aggregates);

// A with its weak links (link_strength below the threshold) dropped and added to the diagonal, so
// that every row sums as before, but for a row whose diagonal that would make zero or negative: it
// keeps its own. d: A's diagonal. `reuse`: csr_from_rows's buffers, kept from one matrix to the next.
CsrMatrix filtered_matrix(const CsrMatrix& a, const std::vector<double>& d, double threshold,
                          RowBlocks* reuse = nullptr);

// Whether filtered_matrix(a, d, threshold) would drop no link, and so be `a` bit for bit (weak sums of
// 0.0 added to no diagonal): the finest level of a Laplacian on a mesh of moderate aspect ratios.
bool drops_no_link(const CsrMatrix& a, const std::vector<double>& d, double threshold);

// The smoothed prolongation P = (I − ω D_F⁻¹ A_F) T on the filtered matrix A_F (filtered_matrix),
// ω = 4 / (3 λ) with λ a bound of λmax(D_F⁻¹ A_F): damped Jacobi applied to T's columns, which makes
// the coarse basis functions smooth and overlapping (smoothed aggregation), along strong links only,
// so that P, and the coarse matrices, stay sparse on stretched meshes. P 1 = 1 still where A 1 = 0.
// Rows built in parallel, the same on any thread count. known_bound: λ where the caller has it (the
// filtered matrix is A itself, its bound already computed), else it is computed here.
CsrMatrix smoothed_prolongation(const CsrMatrix& filtered, const Aggregates& aggregates,
                                std::optional<double> known_bound = std::nullopt, RowBlocks* reuse = nullptr);

// The prolongation's smoothing weight ω = 4 / (3 λ) for the bound λ of D_F⁻¹ A_F.
inline double jacobi_weight(double bound) { return 4.0 / (3.0 * bound); }

// The diagonal entry of each row i (column i; 0 where absent).
std::vector<double> row_diagonal(const CsrMatrix& a);

// P = (I − ω D_F⁻¹ A_F) T for the rows of A_F = f (the first f.rows rows of T, whose rows are f's
// columns), given ω: the step smoothed_prolongation takes once it has ω. fd: f's diagonal.
CsrMatrix jacobi_smoothed_prolongation(const CsrMatrix& f, const std::vector<double>& fd, double omega,
                                       const Aggregates& aggregates, RowBlocks* reuse = nullptr);

}  // namespace miniapp::amg
