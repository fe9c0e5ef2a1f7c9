#pragma once
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "operators/backend/device_matrix.hpp"
#include "operators/sparse/csr_matrix.hpp"
#include "solvers/amg/amg_options.hpp"
#include "solvers/amg/chebyshev_smoother.hpp"
#include "parallel/subdomain.hpp"
#include "solvers/amg/hierarchy.hpp"
#include "solvers/amg/level_matrix.hpp"
#include "solvers/amg/rank_hierarchy.hpp"
#include "solvers/preconditioner.hpp"

namespace miniapp {

// Algebraic multigrid preconditioner (smoothed aggregation, docs/amg.md): z = M r is one symmetric
// V-cycle from z = 0. The hierarchy is built once on the host from the matrix alone (amg::build_hierarchy)
// and stored on the executor as sELL matrices (A_l, P_l, R_l = P_lᵀ, and the coarsest level's dense
// pseudo-inverse), so that the cycle is SpMVs, AXPYs and pointwise products of the front ends: it runs
// unchanged on every backend and every kernel is counted. Pre- and post-smoothing are the same
// Chebyshev polynomial, so M is symmetric, and positive definite on the complement of the constants
// when the matrix is a pure-Neumann or periodic Laplacian (PcgOptions::singular).
class Amg final : public Preconditioner {
 public:
  // a: symmetric, positive diagonal, positive semi-definite with at most the constants as null space.
  // Throws miniapp::Error naming what is wrong (build_hierarchy), or, on CUDA, when the hierarchy
  // does not fit in the device's free memory.
  Amg(const Executor& exec, const CsrMatrix& a, const amg::AmgOptions& options = {}, index_t slice_height = 32,
      const DeviceSell* fine = nullptr);
  // From a hierarchy built beforehand with the same options (e.g. to size it for the up-front memory
  // estimate first). `fine`: the finest matrix already on exec (the solver's own, from the same CSR
  // matrix and slice height), used in place of a copy when the matrices are stored in double, its
  // structure shared when they are stored in float: its arrays must outlive this object, the matrix
  // object itself may be moved.
  Amg(const Executor& exec, const amg::HostHierarchy& hierarchy, const amg::AmgOptions& options,
      index_t slice_height, const DeviceSell* fine = nullptr);
  // On several ranks: the hierarchy coupled across them (amg::build_rank_hierarchy from the same
  // options), whose cycle updates halos through `fine` (the finest level's Subdomain, which must
  // outlive the preconditioner) and through a Subdomain per coarser split level and one for the first
  // gathered level (its all-gather), made here with `transport`; the gathered levels below it cycle on
  // each rank alone, as on one rank. r and z then have fine.local_count() entries; z's halo is not
  // updated. Collective, to make and to apply.
  Amg(const Executor& exec, parallel::Subdomain& fine, const amg::RankHierarchy& hierarchy,
      const amg::AmgOptions& options, index_t slice_height, parallel::HaloTransport transport);
  // Executor bytes the constructor allocates for this hierarchy with these options (storage, smoother
  // degree): its matrices (with `shared_fine` the finest one's float values alone, or nothing of it
  // with double ones), the smoothers' vectors and every level's own.
  static std::size_t device_bytes(const amg::HostHierarchy& hierarchy, index_t slice_height,
                                  const amg::AmgOptions& options, bool shared_fine = false);
  // The same for this rank's share of a hierarchy of several ranks, the gathered levels whole, with
  // the halo exchanges the constructor makes (each coarser split level's and the gathered level's; the
  // finest level's is `fine`'s). Collective: the exchanges' sizes come from a count of each level's sends.
  static std::size_t device_bytes(const parallel::Communicator& comm, const amg::RankHierarchy& hierarchy,
                                  index_t slice_height, const amg::AmgOptions& options);
  ~Amg() override;
  // Not safe to call concurrently on one object (the levels' vectors are shared).
  void apply(const Vector& r, Vector& z) const override;
  // A cycle costs tens of SpMVs: no iteration is queued past the stop.
  int batch_iterations() const override { return 1; }

  // Per level, finest first, the coarsest last: rows and non-zeros of its matrix (over every rank).
  struct LevelSize {
    long long rows, nnz;
  };
  const std::vector<LevelSize>& level_sizes() const { return sizes_; }
  double operator_complexity() const { return operator_complexity_; }
  // On several ranks the levels split over them (the finest first; the others are gathered onto every
  // rank), 0 on one rank.
  std::size_t split_levels() const { return fine_ ? levels_.size() : 0; }
  bool float_storage() const { return float_storage_; }
  // Wall seconds of each set-up stage: the host hierarchy's, its sELL conversion (float storage) and its upload.
  const amg::SetupProfile& setup_profile() const { return profile_; }

  // One front-end kernel call of the cycle, to be made alone (miniapp poisson --level-kernels times each).
  struct KernelCall {
    std::string kernel;     // the front end: spmv, spmv_axpby, jacobi_step, pointwise, axpby or copy
    std::string operation;  // what it computes, e.g. "r = b - A x" (b, x: the level's right-hand side and iterate)
    index_t rows = 0;       // entries it writes
    std::function<void()> run;  // the call, on the operands the cycle passes it
  };
  // Level l's part of the cycle: each of its kernel calls in the cycle's order, none of them made yet.
  // On a level above the coarsest the smoothing, residual, restriction, prolongation and correction,
  // the coarser levels' calls coming before calls[coarser_at]. On the coarsest level (l =
  // level_sizes().size() − 1) the coarse solve; on several ranks, on the first gathered level, the
  // all-gather and the gathered levels' whole cycle as one call. Every call works on the level's own
  // matrices and vectors as the cycle does, the finest level's b and x being r and z (standing for
  // apply's; the calls keep references to them), a coarser level's those of the level above; after
  // apply(r, z) they hold a cycle's values. On several ranks an SpMV call updates its input's halo
  // first (collective). Throws miniapp::Error for l past the coarsest (the first gathered level).
  struct LevelCalls {
    std::vector<KernelCall> calls;
    std::size_t coarser_at = 0;
  };
  LevelCalls level_calls(std::size_t l, const Vector& r, Vector& z) const;

 private:
  struct Level;
  void cycle(std::size_t l, const Vector& b, Vector& x) const;
  // Level l's part of the cycle (l above the coarsest): each kernel call handed to `step` as
  // ChebyshevSmoother::steps does, the coarser levels' part to `coarser()` (amg.cpp).
  template <class Step, class Coarser>
  void level_steps(std::size_t l, const Vector& b, Vector& x, Step&& step, Coarser&& coarser) const;

  Executor exec_;
  parallel::Subdomain* fine_ = nullptr;  // on several ranks, the finest level's
  std::vector<std::unique_ptr<parallel::Subdomain>> domains_;  // on several ranks, the coarser levels'
  std::vector<std::unique_ptr<Level>> levels_;  // all but the coarsest
  std::unique_ptr<amg::CoarseSolve> coarse_solve_;
  std::vector<LevelSize> sizes_;
  double operator_complexity_ = 1;
  bool float_storage_ = false;
  amg::SetupProfile profile_;
};

}  // namespace miniapp
