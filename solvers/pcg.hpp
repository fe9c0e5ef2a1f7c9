#pragma once
#include <array>
#include <string>
#include <vector>

#include "operators/backend/device_matrix.hpp"
#include "operators/backend/kernel_counters.hpp"
#include "operators/backend/kernel_graph.hpp"
#include "operators/kernels/cg_kernels.hpp"
#include "solvers/preconditioner.hpp"

namespace miniapp {

struct PcgOptions {
  double tolerance = 1e-8;   // stop when ‖r‖₂ / ‖b‖₂ ≤ tolerance
  int max_iterations = 1000;
  // A is symmetric positive semi-definite with the constants as its null space (a pure-Neumann or
  // periodic Laplacian): b, the initial guess and the solution are projected to zero mean.
  bool singular = false;
  // Iterations per batch: the host reads the residual after each batch, or (a device loop, see
  // `graphs`) the device tests whether to run the next. The kernels apply the residual test themselves
  // and stop at the exact iteration, so x, the residual and the iteration count do not depend on it: a
  // larger interval only queues up to interval − 1 no-op iterations past the stop (3 to 4 empty
  // launches each, plus the apply of a non-diagonal M, whose result is unused). 0 picks the
  // preconditioner's batch_iterations, else the backend's default (default_check_interval).
  int check_interval = 0;
  // Replay the batches as one recorded kernel graph (KernelGraph: a CUDA Graph, recorded once per
  // solve) instead of launching their kernels one by one: as a loop that the device repeats until the
  // solve stops, with no host round trip before the end of the solve, where the CUDA runtime has
  // conditional graph nodes (12.4 and later), else one replay per batch. Same kernels, same arguments:
  // x, the residual and the iteration count are bitwise those of plain launches. Used on CUDA with
  // profiling off; elsewhere (and if the preconditioner cannot be recorded) kernels are launched as usual.
  bool graphs = true;
  // With graphs: when the matrix and the preconditioner are the objects of this Pcg's previous solve
  // and x the same vector, the caller vouches that neither object has been rebuilt or changed since,
  // so the batch recorded then is replayed without recording it again (a recording costs the host
  // tens of µs while the GPU waits, at every solve). Off by default: the objects are the caller's.
  // With profiling on nothing is replayed, kept or not.
  bool keep_recording = false;
};

// 1 on the CPU (reading the residual is a memcpy), 8 on CUDA (without a device loop a read is a stream
// synchronisation, which costs a few empty launches of the iterations queued past the stop).
int default_check_interval(Backend backend);
// Host reads of the scalar block per iteration of a long solve with the default interval and graphs:
// 0 where CUDA runs the batches as a device loop (one read per solve), else one per batch.
double host_reads_per_iteration(Backend backend);

// Launched iterations of one size: the bytes each moved (the executor's counters), how many, and, for
// batched systems, how many of them each ran over, on how many rows, and the bytes of its
// preconditioner's leading blocks (AMG or AIP over a few of the systems): both cost more per byte
// than the rest (a narrow range of interleaved systems still moves whole cache lines of every row).
struct IterationSize {
  double bytes = 0;
  int iterations = 0;
  index_t systems = 0;  // 0: not batched
  index_t rows = 0;
  double preconditioner_bytes = 0;  // of `bytes`
};
// Adds `more` to `sizes`, to the entry of the same bytes and systems where there is one (ranges of
// systems, and so sizes, repeat).
void add_iterations(std::vector<IterationSize>& sizes, IterationSize more);

struct PcgResult {
  int iterations = 0;
  double relative_residual = 0;  // ‖b − A x‖₂ / ‖b‖₂ of the recursively updated residual
  bool converged = false;
  std::string warning;  // empty when converged
  int replayed_batches = 0;  // batches of iterations run as a recorded graph or loop (PcgOptions::graphs)
  // Iterations whose kernels were queued: `iterations` rounded up to whole batches of check_interval
  // (the kernels queued past the stop do nothing but are launched and counted). What the kernel
  // counters of a solve are linear in.
  int queued_iterations = 0;
  // The kernel calls and host reads the iterations made, the solve's set-up and finish aside (the
  // counters' difference across them): the reads one per batch of check_interval iterations (one for
  // a whole device loop), or the reductions of every iteration on several ranks. The rest of a solve's
  // load does not grow with its iterations.
  KernelCounters iteration_kernels{};
  // The launched iterations by size, where their size changes within a solve (the FFT path's batched
  // PCG, whose systems leave the iterations one by one); empty where every iteration moves the same.
  std::vector<IterationSize> iteration_sizes{};
};

// The PcgResult::warning texts: the iteration cap reached, and a breakdown (pᵀAp not positive).
std::string pcg_cap_warning(int iterations, double residual, const PcgOptions& options);
std::string pcg_breakdown_warning(int iteration, double curvature);
// The end of a solve: converged from the final residual, and the cap warning when not (unless a
// breakdown warning is there already).
void set_outcome(PcgResult& result, const PcgOptions& options);

// Preconditioned conjugate gradients for A x = b with A symmetric positive definite (or semi-definite
// with constant null space, see PcgOptions::singular). Work vectors are allocated once by the
// constructor and reused by every solve (the pressure system is solved once per time step).
// Only front-end kernels are called (the fused CG kernels of operators/kernels/cg_kernels.hpp, with
// their set-up kernels, and spmv, waxpby, copy, fill and the preconditioner), so the same code runs on
// every backend. The set-up and the iteration keep ‖b‖, α, β, ρ and the residual in executor memory
// (CgScalars): no kernel waits for the host, which reads the scalar block after each batch of
// iterations, or once per solve with a device loop (PcgOptions::graphs). A diagonal preconditioner
// (Jacobi) is fused into the residual update; a preconditioner that can (AIP) takes the residual test
// into its apply, leaving the update without a reduction. Local to one rank.
class Pcg {
 public:
  // `rows`: the system size; the vectors passed to solve must have it and live on `exec`.
  Pcg(const Executor& exec, index_t rows);

  // Solves A x = b starting from the incoming x; on return x holds the last iterate (zero mean in
  // singular mode). Does not throw when the iteration cap is hit: the result says so.
  PcgResult solve(const DeviceSell& a, const Preconditioner& m, const Vector& b, Vector& x,
                  const PcgOptions& options);

 private:
  void start(const DeviceSell& a, const Preconditioner& m, const Vector& x, const PcgOptions& options);
  // Iteration k of the solve (from 0): k picks the residual vectors of an apply that takes the update
  // (residual).
  void queue_iteration(const DeviceSell& a, const Preconditioner& m, Vector& x, int k);
  // The residual after k iterations: r_ throughout, except with a preconditioner that takes the update
  // and writes the new residual apart from the old one (Preconditioner::residual_in_place), so that r_
  // and r_next_ alternate, r_ after an even number of iterations. r_next_ is allocated with the others
  // (8 bytes per row unused by the other preconditioners): the set-up's allocations stay those that
  // the up-front memory estimate counts.
  static bool alternates(const Preconditioner& m) { return m.fuses_update() && !m.residual_in_place(); }
  Vector& residual(const Preconditioner& m, int k) { return alternates(m) && k % 2 == 1 ? r_next_ : r_; }
  // Runs the iterations; sets result's replayed_batches and queued_iterations.
  CgProgress iterate(const DeviceSell& a, const Preconditioner& m, Vector& x, const PcgOptions& options,
                     PcgResult& result);

  Executor exec_;
  index_t rows_;
  Vector r_, r_next_, z_, p_, q_, rhs_;
  CgScalars scalars_;
  KernelGraph batch_;  // the recorded batch of check_interval iterations of the current solve
  bool looped_ = false;  // batch_ is a loop the device repeats (KernelGraph::record_loop)
  // What batch_ was recorded for (PcgOptions::keep_recording); all null when nothing is.
  struct Recording {
    const DeviceSell* a = nullptr;
    const Preconditioner* m = nullptr;
    const double* x = nullptr;
    int interval = 0;
    bool operator==(const Recording&) const = default;
  } recorded_;
};

}  // namespace miniapp
