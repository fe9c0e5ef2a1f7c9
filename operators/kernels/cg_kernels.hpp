#pragma once
#include <vector>

#include "operators/backend/cg_scalars.hpp"
#include "operators/backend/device_matrix.hpp"
#include "operators/backend/kernel_graph.hpp"

namespace miniapp {

// Fused kernels of the preconditioned conjugate-gradient iteration (solvers/pcg.cpp): each does in one
// pass over the vectors what the plain iteration does with several AXPYs and DOTs, and keeps its
// scalars (α, β, ρ, the residual) in a CgScalars block in executor memory, so that no kernel waits
// for the host. Every kernel is a no-op once the block's status is not `running` (see cg::Status):
// the host may queue iterations ahead and read the block only every few iterations.
// Kernels are asynchronous; the DOTs they fuse add no DRAM traffic (their operands are in registers or
// re-read from cache), so each is counted with the bytes of its vector updates only.

// Progress of a solve, as read back from the scalar block.
struct CgProgress {
  cg::Status status = cg::Status::running;
  int iterations = 0;
  double relative_residual = 0;  // √(r·r) / ‖b‖
  double curvature = 0;          // σ = pᵀ A p of the last step (the culprit after a breakdown)
  int loop_runs = 0;             // bodies run by the device loop of the solve (cg_loop_test)
};

// The scalar block of one CG solve (cg::Slot) and the scratch of its reductions, on one executor.
class CgScalars {
 public:
  explicit CgScalars(const Executor& exec);
  // Starts a solve: ρ = r·z and ‖r‖/‖b‖ of the initial residual, ‖b‖ > 0, and the tolerance on
  // ‖r‖/‖b‖; no iteration done, status running. Asynchronous on CUDA.
  void start(double rho, double relative_residual, double b_norm, double tolerance);
  // Copies the block to the host: waits for every kernel queued before (the one host round trip).
  CgProgress read() const;
  // Every slot, indexed by cg::Slot (synchronous, as read).
  std::vector<double> values() const { return slots_.to_host(); }
  cg::ScalarsView view();
  const Executor& executor() const { return slots_.executor(); }

 private:
  Vector slots_, partials_;
  Array<unsigned> done_;
};

// q = A p and σ = pᵀ q, then α = ρ / σ (or status breakdown when σ ≤ 0). SpMV class: the bytes of
// spmv (the dot re-reads p_i from cache), flops 2 nnz + 2 n.
void cg_spmv_dot(const Executor& exec, const DeviceSell& a, const Vector& p, Vector& q, CgScalars& s);

// The next direction and its product in one pass: p = z + β p, q = A z + β q, then σ = pᵀq and
// α = ρ / σ (or status breakdown) as cg_spmv_dot. Given q = A p on entry, q = A p on exit (up to
// round-off: the product of the new direction is formed from A z and the previous q, so only z is
// gathered). SpMV class: the bytes of spmv for z plus p and q read and written (12 E + 4 S + 40 n),
// flops 2 nnz + 6 n.
void cg_direction_spmv_dot(const Executor& exec, const DeviceSell& a, const Vector& z, Vector& p, Vector& q,
                           CgScalars& s);

// x += α p, r −= α q, γ = r·r; counts the iteration and applies the residual test. AXPY class:
// bytes 48 n (p, q, x, r read; x, r written), flops 6 n.
void cg_update(const Executor& exec, const Vector& p, const Vector& q, Vector& x, Vector& r, CgScalars& s);

// cg_update with a diagonal preconditioner M⁻¹ = diag(d) fused in: z = d ∘ r, ρ_new = r·z, then
// β = ρ_new / ρ, ρ ← ρ_new (as cg_rho). AXPY class: bytes 64 n (d, p, q, x, r read; x, r, z written),
// flops 9 n.
void cg_update_jacobi(const Executor& exec, const Vector& d, const Vector& p, const Vector& q, Vector& x,
                      Vector& r, Vector& z, CgScalars& s);

// ρ_new = r·z, β = ρ_new / ρ, ρ ← ρ_new (after a preconditioner that cannot be fused). DOT class:
// bytes 16 n, flops 2 n.
void cg_rho(const Executor& exec, const Vector& r, const Vector& z, CgScalars& s);

// The set-up of a solve, kept on the executor like the iteration, so that a solve reads the scalar
// block once, at its end. These run whatever the status.

// v ← v − mean(v): projects v onto the complement of the constants (the null space of a singular
// Laplacian); the mean is left in the mean slot. Two passes (the subtraction needs the whole sum): a
// DOT (bytes 8 n, flops n) and an AXPY (bytes 16 n, flops n).
void cg_remove_mean(const Executor& exec, Vector& v, CgScalars& s);

// Starts a solve from b and r = b − A x: ‖b‖, the initial residual test against `tolerance` on ‖r‖/‖b‖,
// the iteration count and `max_iterations` (cg::finish_start; status zero_rhs when b = 0). ρ = r·z is
// set by the preconditioner's apply_with_rho or cg_rho after it. DOT class: bytes 16 n, flops 4 n.
void cg_start(const Executor& exec, const Vector& b, const Vector& r, CgScalars& s, double tolerance,
              int max_iterations);

// The condition of a loop that the device runs (KernelGraph::record_loop), as the last call of its
// body of `body` iterations: counts the run and goes on while cg::loop_continues. Outside a recorded
// loop (the CPU) it only counts. Pointwise class: one thread, the block's slots only (bytes 40).
void cg_loop_test(const Executor& exec, CgScalars& s, int body, LoopCondition condition);

}  // namespace miniapp
