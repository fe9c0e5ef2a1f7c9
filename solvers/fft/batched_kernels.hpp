#pragma once
#include "operators/backend/device_matrix.hpp"
#include "solvers/fft/batched_shape.hpp"

// Kernels of the batched frequency solves (thesis §4.5, Algorithm 3). Vectors hold S systems over the
// same N rows, interleaved with the system fastest: v[c · S + s] (the 1D-block order), so one row's
// systems are contiguous and a warp (or a SIMD register) handles consecutive systems of one row.
// Every kernel acts on the systems of `range` only; the other systems are neither read nor written.
// All arrays live on `exec`; the calls are asynchronous on CUDA except where a result goes to the host.
// Each call adds its bytes and flops (stated per kernel, w = |range|) to the executor's counters.
namespace miniapp::fft {

// N · S: the entries of a batched vector; throws miniapp::Error when that exceeds index_t.
inline index_t batched_size(index_t rows, index_t systems) {
  return checked_index(static_cast<std::size_t>(rows) * static_cast<std::size_t>(systems), "FFT Poisson vectors");
}

struct SystemRange {
  index_t begin = 0, end = 0;
  index_t size() const { return end - begin; }
};
// The systems in both ranges (empty, at a's or b's begin, when they do not overlap).
inline SystemRange intersection(SystemRange a, SystemRange b) {
  const index_t begin = a.begin > b.begin ? a.begin : b.begin, end = a.end < b.end ? a.end : b.end;
  return {begin, end > begin ? end : begin};
}

// The S shifted matrices A + σ_s diag(w) stored once (thesis eq. 4.33, Table 4.1): A (N × N, CSR),
// its diagonal, w (N) and σ (S), on the executor.
struct ShiftedView {
  const DeviceCsr& a;
  const Vector& diagonal;
  const Vector& w;
  const Vector& shifts;
};

// Rows of at least this many entries on average, an AMG block's dense coarse inverse rather than a
// transfer, take a warp each in the CUDA batched_spmv.
inline constexpr double batched_warp_row_entries = 64;

// y_s = A x_s for s in range. Each coefficient of A is read once for all systems of the range (with rows
// of batched_warp_row_entries, on CUDA, once per four of them). A may be rectangular (N × M: an AMG
// transfer): x has M · S entries, y N · S, distinct.
// Bytes 12 nnz + 4(N + 1) + 8 (N + M) w; flops 2 nnz w.
void batched_spmv(const Executor& exec, const DeviceCsr& a, const Vector& x, Vector& y, index_t systems,
                  SystemRange range);
// y_s = (A + σ_s diag(w)) x_s for s in range (Algorithm 3). Bytes as batched_spmv plus 8 N + 8 w;
// flops 2 (nnz + N) w.
void batched_shifted_spmv(const Executor& exec, const ShiftedView& m, const Vector& x, Vector& y, index_t systems,
                          SystemRange range);
// z_s = r_s / (diag(A) + σ_s w): the Jacobi preconditioner of every shifted matrix, computed on the
// fly (no N · S inverse diagonal stored; CUDA forms it as r_s times the inverse, which can differ by an
// ulp). Bytes 16 N (w + 1); flops 3 N w. diag(A) + σ_s w > 0.
void batched_jacobi(const Executor& exec, const ShiftedView& m, const Vector& r, Vector& z, index_t systems,
                    SystemRange range);

// Column sums (one per system) are formed in two steps: a kernel writes the partial sums of each tile
// of rows (batched_shape.hpp: row_tiles(backend, N)) into `partials`, batched_partials_size(backend,
// N, S) entries, and batched_column_sums adds them in tile order. The fused kernels below write
// partials of the dots of CG beside their main work, over the first `owned` rows only (a rank's owned
// rows; N on one rank).
index_t batched_partials_size(Backend backend, index_t rows, index_t systems);
// out[s] = Σ_tiles partials[tile · S + s] for s in range (out: S entries, the others untouched); the
// partials of an N-row kernel. Bytes 8 · tiles · w + 8 w.
void batched_column_sums(const Executor& exec, const Vector& partials, index_t rows, index_t systems,
                         SystemRange range, Vector& out);
// Partials of Σ_c u[c·S+s] v[c·S+s] (of Σ_c u[c·S+s] when v is null) for s in range, rows < owned.
// Bytes 16 N w (8 N w without v); flops 2 N w.
void batched_dot_partials(const Executor& exec, const Vector& u, const Vector* v, index_t systems,
                          SystemRange range, index_t owned, Vector& partials);
// out[s] = Σ_c u[c·S+s] v[c·S+s] over all N rows (batched_dot_partials, then batched_column_sums);
// `partials` has batched_partials_size(backend, N, S) entries. Deterministic for a given backend, N and S.
void batched_dot(const Executor& exec, const Vector& u, const Vector* v, index_t systems, SystemRange range,
                 Vector& partials, Vector& out);

// y_s = (A + σ_s diag(w)) x_s for s in range (batched_shifted_spmv) and the partials of x_s·y_s over
// rows < owned: the SpMV of CG with its pᵀq. Bytes and flops of batched_shifted_spmv (the dot is made of
// values already in registers).
void batched_shifted_spmv_dot(const Executor& exec, const ShiftedView& m, const Vector& x, Vector& y,
                              index_t systems, SystemRange range, index_t owned, Vector& partials);
// The same over the rows of the tiles `tiles` of row_tiles(backend, N) only, their y and their
// partials: two calls over [0, t) and [t, count) write what one call writes, bit for bit (the first
// while a halo update is in flight, over tiles whose rows read no halo). Bytes and flops of the rows
// it covers.
void batched_shifted_spmv_dot(const Executor& exec, const ShiftedView& m, const Vector& x, Vector& y,
                              index_t systems, SystemRange range, index_t owned, Vector& partials, TileSpan tiles);
// The CG update of every system of the range: x_s += α_s p_s, r_s −= α_s q_s (alpha: S entries); for
// s ≥ jacobi_begin also the partials of r_s·z_s with z_s = r_s / (diag(A) + σ_s w), the Jacobi
// preconditioner, formed in registers and not stored (batched_direction_jacobi forms it again), and for
// all the partials of r_s·r_s, over rows < owned (the r·z partials of systems below jacobi_begin are
// written as 0: their preconditioner runs afterwards). Bytes 48 N w + 16 N; flops 6 N w + 5 N wj (wj the
// Jacobi systems).
void batched_cg_update_jacobi(const Executor& exec, const ShiftedView& m, const Vector& alpha, const Vector& p,
                              const Vector& q, Vector& x, Vector& r, index_t systems, SystemRange range,
                              index_t jacobi_begin, index_t owned, Vector& rz_partials, Vector& rr_partials);
// The new search directions p_s = z_s + β_s p_s; beta has S entries. Bytes 24 N w; flops 2 N w.
void batched_direction(const Executor& exec, const Vector& beta, const Vector& z, Vector& p, index_t systems,
                       SystemRange range);
// The new search directions of CG: p_s = z_s + β_s p_s for s < jacobi_begin (z_s from the leading
// preconditioner), p_s = r_s / (diag(A) + σ_s w) + β_s p_s from it (Jacobi's z_s formed again from r_s,
// bit for bit batched_jacobi's, so that no N · S vector z is written and read back). Bytes 24 N w + 16 N;
// flops 2 N w + 3 N wj.
void batched_direction_jacobi(const Executor& exec, const ShiftedView& m, const Vector& beta, const Vector& z,
                              const Vector& r, Vector& p, index_t systems, SystemRange range, index_t jacobi_begin);
// v_s −= sums_s / count (every row); sums has S entries (column sums): the mean removal of singular
// systems, in executor memory. Bytes 16 N w + 8 w; flops 2 N w.
void batched_subtract_mean(const Executor& exec, const Vector& sums, double count, Vector& v, index_t systems,
                           SystemRange range);

// The scalar steps that close a batched PCG iteration (solvers/fft/batched_cg_scalars.hpp), for the
// systems of range, in executor memory: `state` holds batched_cg::slot_count · S entries. Each dot
// comes as `tiles` rows of S partial sums (a fused kernel's partials, summed here in tile order as
// batched_column_sums does; or finished sums: tiles = 1). α_s from σ_s = p_s·q_s (bytes 8 tiles w +
// 24 w); then the residual test and β_s from ρ_new = r_s·z_s and γ = r_s·r_s (bytes 16 tiles w + 80 w).
// Kind dot (they end the reductions).
void batched_finish_curvature(const Executor& exec, Vector& state, const Vector& sigma, index_t tiles,
                              index_t systems, SystemRange range);
void batched_finish_residual(const Executor& exec, Vector& state, const Vector& rho_new, const Vector& gamma,
                             index_t tiles, index_t systems, SystemRange range);
// The start of every system (batched_cg::start) from `sums`, 3 S entries: b_s·b_s, then r_s·z_s, then
// r_s·r_s of the initial residual; so a solve starts without a host round trip. Bytes 88 S; kind dot.
void batched_start(const Executor& exec, Vector& state, const Vector& sums, double tolerance, index_t systems);

}  // namespace miniapp::fft
