#pragma once
#include <cstddef>

#include "operators/kernels/cg_kernels.hpp"

namespace miniapp {

// The apply of the approximate inverse preconditioner (solvers/aip.hpp): z = Gᵀ (G r) for a lower
// triangular G, with the new ρ = r·z of the CG iteration optionally fused in.
// G and Gᵀ are stored as sliced ELLPACK (operators/sparse/sell_matrix.hpp) with 4-byte column indices
// and float values: a preconditioner needs no double precision (M = GᵀG stays symmetric positive
// definite whatever G's rounding), while r, y = G r, z and every sum stay double. That is 8 instead
// of 12 bytes per stored entry. The apply is two row-wise sELL passes, y = G r then z = Gᵀ y, the
// second one also summing r·z while z is in registers. (A one-read variant that scatters y_i G_ij
// into z_j row by row was measured slower on the CPU: the scatter does not vectorise; see
// docs/performance.md, "Second round".)

// One sELL matrix with float values, as the backends read it (layout of SellMatrix).
struct SellFloatView {
  index_t rows, cols, slice_height, slice_count;
  const index_t* slice_ptr;
  const index_t* col;
  const float* val;
};

// Plain view handed to the backends: pointers into executor memory.
struct AipFactorView {
  SellFloatView g, gt;
  double* work;  // y = G r, rows entries
};

// A sELL matrix with float values in executor memory.
class DeviceSellFloat {
 public:
  DeviceSellFloat(const Executor& exec, const SellMatrix& host);
  SellFloatView view() const;
  index_t stored_entries() const { return val_.size(); }
  index_t slice_count() const { return slice_count_; }

 private:
  index_t rows_, cols_, slice_height_, slice_count_;
  Array<index_t> slice_ptr_, col_;
  Array<float> val_;
};

// G and Gᵀ in executor memory, converted once at set-up.
class DeviceAipFactor {
 public:
  // g: square (what aip_factor returns); slices of slice_height ≥ 1 rows. Throws miniapp::Error for a
  // non-square g.
  DeviceAipFactor(const Executor& exec, const CsrMatrix& g, index_t slice_height);
  AipFactorView view() const;
  index_t rows() const { return rows_; }
  index_t nnz() const { return nnz_; }
  const Executor& executor() const { return work_.executor(); }
  // Bytes moved by one apply: both matrices (8 per stored entry, 4 per slice pointer), r, y twice, z.
  double apply_bytes() const;
  // Executor bytes the constructor allocates for a factor with this pattern, without building it
  // (for the up-front memory estimate).
  static std::size_t device_bytes(const CsrMatrix& pattern, index_t slice_height);

 private:
  index_t rows_, nnz_;
  DeviceSellFloat g_, gt_;
  mutable Vector work_;  // y of every apply
};

// z = Gᵀ (G r). With a scalar block s: also ρ_new = r·z, β = ρ_new / ρ and ρ ← ρ_new exactly as
// cg_rho, and nothing at all once s's status is not running. r and z: g.rows() entries on exec,
// distinct. Not safe to call concurrently with one factor (shared scratch).
// Counted as two SpMV calls (the thesis' two products of the AIP, apply_bytes() between them) and,
// with s, one DOT, summed in the second pass on both backends: no bytes on the CPU (r and z are in
// cache), 8 per row on CUDA (r read again; z is in registers).
void aip_apply(const Executor& exec, const DeviceAipFactor& g, const Vector& r, Vector& z, CgScalars* s = nullptr);

// A CG iteration's update joined with the apply (PCG with AIP): x += α p, r −= α q, then what
// cg_update's residual test does (γ = r·r, the iteration counted, cg::finish_residual), then
// aip_apply with s (ρ and β left alone when the test stops the solve; on CUDA z is written all the
// same, as it is formed in the pass that makes the test). On CUDA in the apply's two kernels: the
// first gathers r − α q (r unchanged yet) and advances x at its rows, the second writes r − α q at its
// rows and sums r·z and r·r; on the CPU cg_update's loop, then the apply. Nothing once s's status is not
// running. p, q, x, r, z: g.rows() entries on exec, x, r and z distinct. Counted as the update's two
// AXPYs (one AXPY call, 48 bytes and 4 flops per row) and the apply with its DOT (r·z and r·r: 4
// flops per row): the same bytes as cg_update and aip_apply, which on CUDA the two kernels move (q
// read twice, r read twice and written once, against r read three times and written once).
void aip_apply_advancing(const Executor& exec, const DeviceAipFactor& g, const Vector& p, const Vector& q, Vector& x,
                         Vector& r, Vector& z, CgScalars& s);

}  // namespace miniapp
