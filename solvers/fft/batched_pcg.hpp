#pragma once
#include <initializer_list>
#include <map>
#include <memory>
#include <tuple>
#include <utility>
#include <vector>

#include "operators/backend/kernel_counters.hpp"
#include "operators/backend/kernel_graph.hpp"
#include "solvers/fft/batched_cg_scalars.hpp"
#include "solvers/fft/frequency_preconditioner.hpp"
#include "solvers/fft/plane_partition.hpp"
#include "solvers/pcg.hpp"

namespace miniapp::fft {

struct BatchedPcgOptions {
  double tolerance = 1e-8;  // system s stops when ‖r_s‖₂ ≤ tolerance · ‖b_s‖₂
  int max_iterations = 1000;
  // Iterations queued between two host reads of the systems' progress; 0: the backend's default
  // (default_check_interval: 8 on CUDA, 1 on the CPU). Always 1 on several ranks, whose dots are
  // summed on the host every iteration anyway.
  int check_interval = 0;
  bool graphs = true;  // replay each batch of check_interval iterations as a KernelGraph (CUDA, one rank)
};

struct BatchedPcgResult {
  std::vector<int> iterations;            // per system (0: the initial guess already met the tolerance)
  std::vector<double> relative_residual;  // per system, of the recursively updated residual
  bool converged = false;                 // all systems
  int replayed_batches = 0;               // batches of check_interval iterations replayed as graphs
  int queued_iterations = 0;              // iterations queued (whole batches; see PcgResult)
  KernelCounters iteration_kernels{};     // the kernel calls and host reads of the iterations (see PcgResult)
  std::vector<IterationSize> iteration_sizes{};  // per size of the launched iterations (see PcgResult)
};

// PCG for S shifted systems (A + σ_s W) x_s = b_s, s = 0..S−1, sharing one sparse A (N × N, symmetric
// positive semi-definite) and one diagonal W ≥ 0 (thesis §4.3, §4.5, Algorithm 3), on any executor:
// the unified structure stores A once and the batched SpMV reads each coefficient once for all active
// systems. Vectors are interleaved, system fastest: x[c · stride + s] (stride ≥ S, ShiftedSystems).
// Each system stops at its own tolerance and drops out (α = β = 0 freeze it; the kernels' range
// shrinks to the first to last running systems, so order the systems by increasing σ: with Jacobi or
// AIP the low ones converge last, with AMG on them first, and the range stays contiguous). Systems with σ_s = 0 and
// `singular_at_zero` have the constants as null space: their b, initial guess and solution are
// projected to zero mean. The preconditioner is set per block of systems (preconditioner()).
// Per iteration, over the active systems: the batched SpMV with pᵀq fused, the CG update with the
// Jacobi preconditioner and r·z, r·r fused (AIP or AMG blocks: their apply and an r·z pass after it), the
// direction, and two scalar kernels (batched_cg_scalars.hpp) that sum the dots' row-tile partials (on
// several ranks the sums are reduced over the ranks first): α, β and each system's stop are decided in
// executor memory, so the host only reads the systems' progress
// every check_interval iterations (a stopped system is frozen until then) to shrink the range; on CUDA
// each batch of check_interval iterations over a range is recorded once (per x) and replayed as a
// graph.
// Work vectors are allocated once by the constructor.
// On several ranks (a PlanePartition, thesis §4.5.3) A holds the rank's rows, owned then halo (halo
// rows are computed and never used), the search direction's halo travels before each SpMV with every
// active system in one message per neighbour, each group of dots of an iteration is one allreduce,
// and the preconditioner is rank-local (block Jacobi across ranks); singular_at_zero must then be the
// same on every rank.
class BatchedPcg {
 public:
  // block_systems: systems per preconditioner block (0: block_systems_for(S, 8)); aip_level: of the
  // AIP blocks; plane: the ranks' partition of the rows (must outlive the solver), nullptr for one
  // rank; stride: of the vectors' rows (0: S). Starts with Jacobi everywhere.
  BatchedPcg(const Executor& exec, CsrMatrix a, std::vector<double> w, std::vector<double> shifts,
             bool singular_at_zero, index_t block_systems = 0, int aip_level = 1,
             PlanePartition* plane = nullptr, index_t stride = 0);
  // Executor bytes of a solver whose vectors have rows of `stride` entries over a `rows`-row matrix of
  // `nnz` entries with Jacobi everywhere (its leading blocks' factors and hierarchies come on top once
  // built).
  static std::size_t device_bytes(Backend backend, index_t rows, index_t nnz, index_t stride);
  BatchedPcg(const BatchedPcg&) = delete;  // the preconditioner refers to systems_
  BatchedPcg& operator=(const BatchedPcg&) = delete;

  index_t rows() const { return systems_.rows(); }
  index_t systems() const { return systems_.systems(); }
  index_t stride() const { return systems_.stride(); }
  const ShiftedSystems& shifted_systems() const { return systems_; }
  FrequencyPreconditioner& preconditioner() { return preconditioner_; }
  const FrequencyPreconditioner& preconditioner() const { return preconditioner_; }

  // Rows of A this rank owns (all of them on one rank): the leading rows of every vector.
  index_t owned_rows() const { return plane_ ? plane_->owned_rows() : rows(); }
  // Solves from x (initial_guess) or from zero; b and x have rows() · stride() entries on the
  // executor, of which the owned rows matter (x's halo need not be current). b (and x) are projected
  // in place where singular. Collective on several ranks.
  BatchedPcgResult solve(Vector& b, Vector& x, const BatchedPcgOptions& options, bool initial_guess = false);
  // Frees what only other configurations of the preconditioner than the one in force use: their
  // recorded batches, then their factors and hierarchies (FrequencyPreconditioner::free_unused_blocks).
  void free_other_configurations();

 private:
  using DotPair = std::pair<const Vector*, const Vector*>;  // u, v (null: the column sums of u)
  // Queues the column dots of each pair into rows first, first + 1, ... of dots_, summed over the
  // ranks (a host round trip) on several ranks.
  void queue_column_dots(std::initializer_list<DotPair> pairs, index_t first, index_t active);
  // Rows [first, first + count) of dots_ summed over the ranks (nothing on one rank).
  void sum_over_ranks(index_t first, index_t count);
  struct Sums {
    index_t tiles;             // rows of partials per dot (1: sums finished over the ranks)
    std::vector<Vector> rows;  // per dot: a window of its partials, or of dots_
  };
  Sums reduce(std::initializer_list<Vector*> parts, index_t first, SystemRange range);
  Vector partials(int k);  // the k-th set of column partials (0: pᵀq, 1: r·z, 2: r·r)
  // v_s −= mean(v_s) for the singular systems, in executor memory (a host round trip on several ranks
  // only, for the sums over the ranks).
  void remove_mean(Vector& v);
  // Sets the state from b and the initial residual, in executor memory.
  void start(const Vector& b, double tolerance);
  // Queues one iteration; sets preconditioner_bytes_ to the bytes its leading blocks moved.
  void queue_iteration(Vector& x, SystemRange active);
  struct RecordedBatch {
    std::unique_ptr<KernelGraph> graph;
    double preconditioner_bytes = 0;  // per iteration, as queue_iteration counted them when recorded
  };
  // The recorded batch of (x, active, the preconditioner's leading blocks), recording `batch` the first
  // time; nullptr when it cannot be recorded (the CPU, profiling on).
  const RecordedBatch* recorded_batch(const Vector& x, SystemRange active, const std::function<void()>& batch);
  int check_interval(const BatchedPcgOptions& options) const;

  Executor exec_;
  PlanePartition* plane_;
  ShiftedSystems systems_;
  FrequencyPreconditioner preconditioner_;
  index_t singular_systems_ = 0;  // the leading systems with σ = 0 of a singular A
  Vector r_, z_, p_, q_, partials_;
  Vector state_;  // batched_cg::slot_count rows of `stride` per-system scalars
  Vector dots_;   // max_dot_pairs rows of `stride` column dots
  // The recorded batches, one per (x, range of active systems, leading blocks of the preconditioner): a
  // batch touches no memory from outside but x, and the preconditioner's factors are kept once made
  // (until free_other_configurations drops the recordings that use them), so a recording stays valid
  // and later solves replay it instead of recording again while the GPU waits (the range shrinks at
  // almost every check).
  std::map<std::tuple<const double*, index_t, index_t, LeadingPreconditioner, int>, RecordedBatch> batches_;
  double preconditioner_bytes_ = 0;  // of the last iteration queued
  static constexpr index_t max_dot_pairs = 3;
};

}  // namespace miniapp::fft
