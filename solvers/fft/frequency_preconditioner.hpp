#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "solvers/fft/batched_kernels.hpp"
#include "solvers/fft/frequency_amg.hpp"

namespace miniapp::fft {

// The S shifted systems (A + σ_s diag(w)) x_s = b_s in unified storage (thesis eq. 4.33): the host
// matrix for the set-up, and A, diag(A), w and σ on the executor. A symmetric, diag(A) + σ_s w > 0.
// Their vectors hold row c's systems at [c · stride + s]: stride ≥ S (0: S), so that each row may
// start on a 128-byte boundary (mode_stride on CUDA); the entries from S to the stride belong to no
// system, and no kernel over a range of systems reads them.
struct ShiftedSystems {
  ShiftedSystems(const Executor& exec, CsrMatrix a, std::vector<double> w, std::vector<double> shifts,
                 index_t stride = 0);
  ShiftedView view() const { return {a, diagonal, w, shifts}; }
  index_t rows() const { return host_a.rows; }
  index_t systems() const { return static_cast<index_t>(host_shifts.size()); }
  index_t stride() const { return stride_; }

  CsrMatrix host_a;
  std::vector<double> host_w, host_shifts;
  DeviceCsr a;
  Vector diagonal, w, shifts;  // shifts: one per entry of a row (σ_{S−1} repeated up to the stride)

 private:
  index_t stride_;
};

// A + σ diag(w) on the host (A stores its diagonal): one frequency's matrix in the naive storage.
CsrMatrix shifted_matrix(CsrMatrix a, const std::vector<double>& w, double sigma);

// Systems per preconditioner block: S / blocks rounded up to an even number (a frequency's real and
// imaginary parts stay together), at least 4.
index_t block_systems_for(index_t systems, int blocks);

// The preconditioner of the leading blocks (the low, ill-conditioned frequencies).
enum class LeadingPreconditioner { aip, amg };

// The preconditioner of every system, one kind per block of consecutive systems (thesis §4.5.4): the
// first `leading_blocks` blocks (the low, ill-conditioned frequencies) by AIP or AMG, the others by
// Jacobi of their own shifted matrix. AIP: a factor G_b of A + σ̄_b diag(w), σ̄_b the mean shift of the
// block, applied to all systems of the block at once (z = G_bᵀ G_b r by two batched SpMVs that read
// G_b once). AMG: a V-cycle of FrequencyAmg per block (one hierarchy for the block's systems). The
// factors and hierarchies are computed on the host when a configuration first needs them, then kept
// (recorded graphs refer to them) until free_unused_blocks.
// On several ranks (A the rank's rows, owned then halo) they are built on the owned × owned block of A
// (block Jacobi across ranks), so the preconditioner never reads halo entries.
class FrequencyPreconditioner {
 public:
  // `systems` must outlive the preconditioner; block_systems even ≥ 2; aip_level in 1..3; owned_rows:
  // the leading rows of A this rank owns (systems.rows() on one rank).
  FrequencyPreconditioner(const Executor& exec, const ShiftedSystems& systems, index_t block_systems, int aip_level,
                          index_t owned_rows);
  ~FrequencyPreconditioner();

  int blocks() const;
  index_t block_systems() const { return block_systems_; }
  LeadingPreconditioner leading() const { return leading_; }
  int leading_blocks() const { return leading_blocks_; }
  // The leading blocks if they are AIP's, else 0.
  int aip_blocks() const { return leading_ == LeadingPreconditioner::aip ? leading_blocks_ : 0; }
  // Selects the configuration with m leading blocks of `kind`, 0 ≤ m ≤ blocks(). Throws miniapp::Error
  // from aip_factor or amg::build_hierarchy when a factor or hierarchy cannot be computed.
  void use_leading_blocks(LeadingPreconditioner kind, int m);
  void use_aip_blocks(int m) { use_leading_blocks(LeadingPreconditioner::aip, m); }
  // Frees the factors and hierarchies that the configuration in force does not use (built for
  // configurations tried before it was chosen); graphs recorded with them must be dropped first.
  void free_unused_blocks();
  // Executor bytes held by the factors and hierarchies built so far and not freed, with the V-cycle's
  // work vector: what the leading blocks add to a solver with Jacobi everywhere.
  std::size_t leading_bytes() const;
  // How AMG blocks are built; only before the first one is (throws miniapp::Error after).
  void set_amg_options(const amg::AmgOptions& options);
  // z_s = M_s⁻¹ r_s for s < active; r and z distinct, N · stride entries.
  void apply(const Vector& r, Vector& z, index_t active) const;
  // The systems below active that the leading kind preconditions: [0, leading_systems(active)).
  index_t leading_systems(index_t active) const;
  // z_s = M_s⁻¹ r_s for the leading systems inside `active` only (the others' Jacobi is the solver's,
  // fused into its update and direction: batched_cg_update_jacobi, batched_direction_jacobi).
  void apply_leading(const Vector& r, Vector& z, SystemRange active) const;
  // E.g. "AIP-1 on k = 0..7 (2 blocks), Jacobi on k = 8..32 (7 blocks); 8 systems per block".
  std::string describe() const;

 private:
  struct Factor;
  SystemRange block_range(int b) const;
  void build_aip_block(int b);
  void build_amg_block(int b);
  Executor exec_;
  const ShiftedSystems& systems_;
  index_t block_systems_, owned_rows_;
  int level_, leading_blocks_ = 0;
  LeadingPreconditioner leading_ = LeadingPreconditioner::aip;
  amg::AmgOptions amg_options_ = frequency_amg_options();
  std::vector<std::unique_ptr<Factor>> factors_;                   // per block; null until needed
  std::vector<std::unique_ptr<FrequencyAmg>> amg_;                 // per block; null until needed
  std::vector<std::size_t> factor_bytes_, amg_bytes_;              // per block: executor bytes of each
  mutable Vector tmp_, amg_work_;                                  // G r; the V-cycle's second work vector
};

// The greedy search of thesis §4.5.4: measures cost(0) (Jacobi everywhere), then cost(1), cost(2), ...
// (one more AIP block each time) as long as each step lowers the best cost so far by more than the
// fraction `min_gain`; returns the m of the lowest cost seen. cost(m) is called once per m tried, in
// increasing order, m ≤ blocks.
int choose_aip_blocks(int blocks, const std::function<double(int)>& cost, double min_gain = 0.02);

}  // namespace miniapp::fft
