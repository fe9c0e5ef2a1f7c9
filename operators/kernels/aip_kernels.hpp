#pragma once
#include <cstddef>
#include <optional>

#include "operators/backend/kernel_types.hpp"
#include "operators/kernels/cg_kernels.hpp"

namespace miniapp {

// The apply of the approximate inverse preconditioner (solvers/aip.hpp): z = M r with M = Gᵀ G for a
// lower triangular G, with the new ρ = r·z of the CG iteration optionally fused in.
// The matrices are stored as sliced ELLPACK (operators/sparse/sell_matrix.hpp) with 4-byte column
// indices and float values: a preconditioner needs no double precision, while r, z and every sum
// stay double. That is 8 instead of 12 bytes per stored entry. The apply takes one of two forms
// (AipForm), each a row-wise sELL pass per matrix, the last pass also summing r·z while z is in
// registers:
// - two passes, y = G r then z = Gᵀ y (the thesis' form; M = GᵀG stays symmetric positive definite
//   whatever G's rounding);
// - one pass over the product M = Gᵀ G formed at set-up: no y written and read again, one kernel
//   fewer, but M has more entries than G and Gᵀ together on some patterns (13 against 8 per row on a
//   7-point stencil, 7.4 against 6 on tetrahedra). M is rounded once from its double-precision
//   entries, symmetric bitwise (both triangles hold the same sums): it stays definite as long as that
//   rounding (6·10⁻⁸ relative) is below its smallest eigenvalue relative to its largest.
// (A one-read variant that scatters y_i G_ij into z_j row by row was slower on the CPU: the scatter
// does not vectorise.)
enum class AipForm {
  two_pass,     // y = G r, z = Gᵀ y
  product,      // z = (Gᵀ G) r
  fewer_bytes,  // whichever moves fewer bytes per apply (DeviceAipFactor's choice)
};

// A sELL matrix with float values in executor memory.
class DeviceSellFloat {
 public:
  DeviceSellFloat(const Executor& exec, const SellMatrix& host);
  // The matrix `a` with its values rounded to float on a's executor (no host round trip; the same values
  // as from a's host sELL), taking a's slice offsets and columns.
  explicit DeviceSellFloat(DeviceSell&& a);
  // The same, reading a's slice offsets and columns in place: a must outlive this matrix.
  static DeviceSellFloat sharing_structure(const DeviceSell& a);
  SellFloatView view() const;
  index_t rows() const { return rows_; }
  index_t cols() const { return cols_; }
  index_t nnz() const { return nnz_; }
  index_t stored_entries() const { return val_.size(); }
  index_t slice_count() const { return slice_count_; }
  const Executor& executor() const { return val_.executor(); }

 private:
  DeviceSellFloat(const DeviceSell& values_of, DeviceSell::Structure structure);

  index_t rows_, cols_, slice_height_, slice_count_, nnz_;
  Array<index_t> slice_ptr_, col_;
  Array<float> val_;
};

// G and the matrices its form applies, on the host: Gᵀ always (two passes apply it, the product is
// formed from it), and Gᵀ G where the form takes the product. Built once at set-up, so that the
// memory estimate sizes what will be uploaded (DeviceAipFactor::device_bytes) without building it twice.
struct AipHostMatrices {
  CsrMatrix g, gt;
  std::optional<CsrMatrix> product;
};
// The matrices of `form` for a square g (what aip_factor returns), with slices of slice_height rows;
// AipForm::fewer_bytes takes the product where it moves fewer bytes (DeviceAipFactor). Throws
// miniapp::Error for a non-square g.
AipHostMatrices aip_host_matrices(CsrMatrix g, index_t slice_height, AipForm form);

// The preconditioner's matrices in executor memory, converted once at set-up: G and Gᵀ, or their
// product, in the form asked for or, by default, the one whose matrices (8 bytes per stored entry, 4
// per slice pointer) and, for two passes, y written and read (16 bytes per row) come to fewer bytes.
// A product whose rows would gather more than four times G's entries (Σ_k |row k of G|², AIP-2 and
// AIP-3 on most meshes) is not formed: two passes move fewer bytes there.
class DeviceAipFactor {
 public:
  // g: square (what aip_factor returns); slices of slice_height ≥ 1 rows. Throws miniapp::Error for a
  // non-square g.
  DeviceAipFactor(const Executor& exec, const CsrMatrix& g, index_t slice_height,
                  AipForm form = AipForm::fewer_bytes);
  // From the host matrices built beforehand (aip_host_matrices with the same slice height).
  DeviceAipFactor(const Executor& exec, const AipHostMatrices& m, index_t slice_height);
  AipFactorView view() const;
  AipForm form() const { return second_ ? AipForm::two_pass : AipForm::product; }
  index_t rows() const { return rows_; }
  const Executor& executor() const { return work_.executor(); }
  // Bytes moved by one apply: the matrices once each, r read and z written, and with two passes y
  // written and read.
  double apply_bytes() const;
  // Flops of one apply: 2 per stored (unpadded) entry of each matrix.
  double apply_flops() const { return flops_; }
  // Executor bytes the constructor (default form) allocates for a factor with this pattern, without
  // building it (for the up-front memory estimate).
  static std::size_t device_bytes(const CsrMatrix& pattern, index_t slice_height);
  // Executor bytes the constructor allocates for these host matrices.
  static std::size_t device_bytes(const AipHostMatrices& m, index_t slice_height);

 private:
  index_t rows_;
  double flops_;
  DeviceSellFloat first_;
  std::optional<DeviceSellFloat> second_;
  mutable Vector work_;  // y of every two-pass apply; empty for the product
};

// v's entries rounded to float and kept as doubles, in place: the values of a double-valued matrix that
// must equal a float-valued one's (AMG's restriction kept in CSR beside its float prolongation). Set-up
// work, not counted.
void round_to_float(const Executor& exec, Vector& v);

// y = A x with a float-valued sELL matrix (AMG's hierarchy stored in float): the one-pass apply's
// kernel without ρ. x: a.cols() entries, y: a.rows(), on exec, distinct. Counted as one SpMV: 8 bytes
// per stored entry, 4 per slice pointer, x read once, y written; 2 flops per true non-zero.
void spmv(const Executor& exec, const DeviceSellFloat& a, const Vector& x, Vector& y);

// z = M r. With a scalar block s: also ρ_new = r·z, β = ρ_new / ρ and ρ ← ρ_new exactly as cg_rho,
// and nothing at all once s's status is not running. r and z: g.rows() entries on exec, distinct. Not
// safe to call concurrently with one factor (shared scratch).
// Counted as one SpMV call per pass (apply_bytes() and apply_flops() shared between them) and, with s,
// one DOT, summed in the last pass: no bytes on the CPU (r and z are in cache) nor in the product's
// pass on CUDA (it gathers r), 8 per row in the second of two passes on CUDA (r read again).
void aip_apply(const Executor& exec, const DeviceAipFactor& g, const Vector& r, Vector& z, CgScalars* s = nullptr);

// A CG iteration's update joined with the apply (PCG with AIP): x += α p, r_new = r − α q, then what
// cg_update's residual test does (γ = r_new·r_new, the iteration counted, cg::finish_residual), then
// aip_apply of r_new with s (ρ and β left alone when the test stops the solve; on CUDA z is written
// all the same, as it is formed in the pass that makes the test). Nothing once s's status is not
// running. p, q, x, r, r_new, z: g.rows() entries on exec; x, r and z distinct, and r_new distinct
// from x and z; with the product also from r, since its single pass gathers r − α q at neighbouring
// rows while it writes its own (the solver then alternates two residual vectors). Two passes may
// update r in place (r_new = r): the first gathers, the second writes.
// On CUDA in the apply's kernels: with two passes the first gathers r − α q and advances x at its
// rows, the second writes r_new at its rows and sums r·z and r·r; with the product one kernel does all
// of it. On the CPU the update's loop, then the apply.
// Counted as the update's two AXPYs (one AXPY call, 48 bytes and 4 flops per row) and the apply with
// its DOT (r·z and r·r: 4 flops per row), the product's pass without r's read (the update's r − α q is
// its input).
void aip_apply_advancing(const Executor& exec, const DeviceAipFactor& g, const Vector& p, const Vector& q, Vector& x,
                         const Vector& r, Vector& r_new, Vector& z, CgScalars& s);

}  // namespace miniapp
