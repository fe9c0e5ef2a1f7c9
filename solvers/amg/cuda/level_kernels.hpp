#pragma once
#include <cstdint>

#include "operators/backend/device_matrix.hpp"

// CUDA part of AMG's set-up (solvers/amg/device_level.hpp): the power iterations of the eigenvalue
// bound, the smoothing of the prolongation and the transpose, each rounding as the host's code does
// (amg::largest_eigenvalue_bound, amg::jacobi_smoothed_prolongation, miniapp::transpose), so the same
// bits. All pointers are device memory; the calls are asynchronous unless they say otherwise. In a
// build without CUDA stubs that throw miniapp::Error.
namespace miniapp::amg::cuda {

// The offsets of rows of the given lengths: returns Σ counts (in 64 bits) and, when it fits in index_t,
// writes its exclusive sums to row_ptr (rows + 1 entries). Synchronous.
std::int64_t row_offsets(void* stream, index_t rows, const index_t* counts, index_t* row_ptr);

// The weak links' filter of amg::filtered_matrix: counts[i] = the entries row i keeps (the links with
// a_ij² ≥ threshold² a_ii a_jj, and the diagonal); returns whether any row drops one. Synchronous.
bool filtered_row_counts(void* stream, const CsrView& a, const double* d, double threshold_squared, index_t* counts);

// The kept entries of each row at its offset in row_ptr, the dropped ones added to the diagonal where
// that leaves it positive: amg::filtered_matrix's bits.
void filtered_rows(void* stream, const CsrView& a, const double* d, double threshold_squared, const index_t* row_ptr,
                   index_t* col, double* val);

// The tentative prolongation T of n rows: row i holds 1 in column of_row[i].
void tentative_rows(void* stream, index_t n, const index_t* of_row, index_t* row_ptr, index_t* col, double* val);

// max over rows of Σ_j |a_ij| / d_i (Gershgorin's bound of D⁻¹A). Synchronous.
double gershgorin_bound(void* stream, const CsrView& a, const double* d);

// scale_i = 1 / √d_i and v_i the start vector's entry of row i, for i < n.
void start_power_iterations(void* stream, index_t n, const double* d, double* scale, double* v);

// v_i = scale_i Σ_k a_ik u_k, summed in row order.
void scaled_product(void* stream, const CsrView& a, const double* scale, const double* u, double* v);

// partial[c] = Σ v_i² over entries [c · chunk, (c + 1) · chunk) of v, in amg::chunk_sum_of_squares's
// order (a warp per chunk).
void chunk_sums_of_squares(void* stream, index_t n, index_t chunk, const double* v, double* partial);

// u_i = scale_i v_i / length.
void scale_and_divide(void* stream, index_t n, const double* scale, const double* v, double length, double* u);

// d_i = a_ii (0 where the row has no diagonal entry).
void row_diagonal(void* stream, const CsrView& a, double* d);

// The smoothing of the prolongation in place: row i of the product A_F T (product_rows' bits) becomes
// value · (−ω / d_i) + 1 in row i's own aggregate (of_row[i]), + 0 elsewhere.
void smooth_prolongation_rows(void* stream, const CsrView& product, double* val, const double* d, double omega,
                              const index_t* of_row);

// The transpose of a (a.cols × a.rows) into row_ptr (a.cols + 1 offsets), col and val (a's entries),
// each row's columns increasing. Synchronous.
void transpose(void* stream, const CsrView& a, index_t* row_ptr, index_t* col, double* val);

}  // namespace miniapp::amg::cuda
