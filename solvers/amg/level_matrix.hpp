#pragma once
#include <variant>

#include "operators/backend/device_matrix.hpp"
#include "operators/kernels/aip_kernels.hpp"
#include "solvers/amg/level_operator.hpp"

namespace miniapp::amg {

// A matrix of the hierarchy in executor memory: sELL with its values stored in double or in float
// (AmgOptions::float_storage: 8 instead of 12 bytes per stored entry; a preconditioner needs no double
// precision, and every vector and sum stays double), or CSR with double values (kept_in_csr), rounded
// to float under float storage. Float rounding keeps R = Pᵀ and A symmetric exactly (equal values round
// alike), so the cycle stays symmetric.
// Executor bytes of a matrix once laid out as sELL: of a host CSR matrix (operators/sparse), and of one
// already in CUDA device memory (its row lengths read there).
using miniapp::sell_device_bytes;
std::size_t sell_device_bytes(const DeviceCsr& m, index_t slice_height, bool float_values);

// Whether a matrix of the hierarchy (a small level's A, P or R, the coarse inverse) is kept in CSR
// rather than sELL: few rows of many entries, whose one-thread-per-row sELL product is a chain of loads
// as long as the row; from CSR the CUDA backend gives each such row a group of lanes (spmv,
// csr_warp_row_entries; the fused passes likewise).
bool kept_in_csr(index_t rows, index_t nnz);
// Executor bytes of a CSR matrix (row offsets, 4-byte columns, double values).
std::size_t csr_device_bytes(index_t rows, index_t nnz);
// Executor bytes of a matrix of the hierarchy as it is kept (kept_in_csr, else sELL).
std::size_t level_device_bytes(const CsrMatrix& m, index_t slice_height, bool float_values);
std::size_t level_device_bytes(const DeviceCsr& m, index_t slice_height, bool float_values);

class LevelMatrix final : public LevelOperator, public CoarseSolve {
 public:
  LevelMatrix(const Executor& exec, const SellMatrix& host, bool float_values);
  // A matrix laid out in executor memory (e.g. from CSR rows, DeviceSell's CSR upload), kept as it is
  // or, with float values, narrowed there.
  explicit LevelMatrix(DeviceSell&& laid_out) : exec_(laid_out.executor()), matrix_(std::move(laid_out)) {}
  explicit LevelMatrix(DeviceSellFloat&& narrowed) : exec_(narrowed.executor()), matrix_(std::move(narrowed)) {}
  // A matrix kept in CSR (kept_in_csr).
  explicit LevelMatrix(DeviceCsr&& csr) : exec_(csr.executor()), matrix_(std::move(csr)) {}
  // The level's matrix already on the executor (the solver's own A), used in place through windows
  // into its arrays: no second copy. Its arrays must outlive this object; the matrix itself may be
  // moved (the operators' upload takes the solver's −L after AMG is laid out on it).
  LevelMatrix(const Executor& exec, const DeviceSell& borrowed)
      : exec_(exec), matrix_(borrowed.with_values(borrowed.values())) {}
  // y = A x through the front end of its storage (spmv), counted as one SpMV; x is only read.
  void multiply(const Vector& x, Vector& y) const;
  void apply(Vector& x, Vector& y) const override { multiply(x, y); }
  void apply_axpby(Vector& x, double alpha, const Vector& u, double beta, Vector& y) const override;
  void jacobi_step(Vector& x, const Vector& b, const Vector& w, Vector& y) const override { jacobi_step(x, x, b, w, y); }
  // y = v + w ⊙ (b − A x), v holding x's entries at y's rows (a block of rows of a level split over ranks).
  void jacobi_step(const Vector& x, const Vector& v, const Vector& b, const Vector& w, Vector& y) const;
  void solve(const Vector& b, Vector& x) const override { multiply(b, x); }

 private:
  Executor exec_;
  std::variant<DeviceSell, DeviceSellFloat, DeviceCsr> matrix_;
};

}  // namespace miniapp::amg
