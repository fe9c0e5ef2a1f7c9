#pragma once
#include <memory>
#include <string>
#include <vector>

#include "core/stage_profile.hpp"
#include "operators/sparse/reorder.hpp"
#include "solvers/fft/batched_pcg.hpp"
#include "solvers/fft/extrusion.hpp"
#include "solvers/fft/periodic_fft.hpp"

namespace miniapp::fft {

// How the frequency systems are preconditioned (thesis §4.5.4).
struct FrequencyPreconditioning {
  int blocks = 8;  // blocks of consecutive systems (block_systems_for)
  LeadingPreconditioner leading = LeadingPreconditioner::aip;  // of the low frequencies' blocks
  // Leading blocks of that kind; −1: chosen at set-up by measured cost (choose_aip_blocks).
  int leading_blocks = -1;
  int aip_level = 1;
  amg::AmgOptions amg = frequency_amg_options();  // of the AMG blocks' hierarchies
};

struct FftPoissonOptions {
  BatchedPcgOptions pcg;
  FrequencyPreconditioning preconditioning;
  bool measure = false;  // FFTW_MEASURE (slower set-up, faster transforms) instead of FFTW_ESTIMATE
};

struct FftPoissonResult {
  // System s is the real (s even) or imaginary (s odd) part of frequency k = s / 2, k = 0..Nper/2;
  // the imaginary parts of k = 0 and Nper/2 are zero and take no iteration.
  BatchedPcgResult frequencies;
  int max_iterations = 0;  // over the frequency systems
  bool converged = false;
};

// Iterations of frequency k: the larger of its real and imaginary systems' (Nper/2 + 1 entries).
std::vector<int> iterations_per_frequency(const BatchedPcgResult& systems);

// Solves −L p = b on a uniform periodic extrusion along z (thesis ch. 4, Algorithm 1) on any executor:
// a real-to-complex DFT along z of b (FFTW or cuFFT, batched over the 2D cells, 1D-block order), then
// for the Nper/2 + 1 frequencies k the 2D systems (−L2d + |λk| W) p̂k = b̂k, λk of periodic_eigenvalue,
// real and imaginary parts as two systems, all by one BatchedPcg in the complex layout of the DFT (no
// repacking), then the inverse DFT divided by Nper. With no outlet the k = 0 system is singular: b is
// projected to zero mean and p has zero mean, like Pcg's singular mode. Warm start: the DFT of the
// incoming p is the initial guess of every frequency system. Plans and buffers are made once; the
// data stays on the executor.
// On several ranks (a P × 1 partition, thesis §4.5.3: `plane` given) the extrusion and the operator
// are the rank's (owned lines, then halo lines; see plane_numbering); the transforms cover the owned
// lines only, all on the rank, and the frequency solves communicate through `plane` (BatchedPcg).
class FftPoisson {
 public:
  // `cell_order`: where b and p hold each mesh cell (new_to_old of the caller's order, e.g. the
  // operators' order); null: mesh order. With options.preconditioning.leading_blocks = −1 the set-up
  // times solves of a random right-hand side for each configuration tried (on several ranks the
  // slowest rank's time decides, so every rank makes the same choice). `plane`: the ranks' partition
  // of the 2D cells (must outlive the solver; op.singular then the same on every rank), nullptr on
  // one rank. `profile`: where the set-up's parts add their times, if given. Collective on several
  // ranks.
  FftPoisson(const Executor& exec, Extrusion extrusion, const PlaneOperator& op, const FftPoissonOptions& options = {},
             const Permutation* cell_order = nullptr, PlanePartition* plane = nullptr,
             StageProfile* profile = nullptr);

  // Executor bytes of a solver on `exec` on `lines` 2D cells (halo lines included), `owned_lines` of
  // them this rank's and `send_lines` sent to other ranks in a halo update (0 on one rank), each of
  // `planes` cells, whose 2D operator has `plane_nnz` entries, with Jacobi everywhere (its leading
  // blocks' factors and hierarchies, chosen later, come on top): its vectors, the transforms' work
  // area and, on several ranks, the PlanePartition's halo exchange of the frequency vectors.
  static std::size_t device_bytes(const Executor& exec, index_t lines, index_t owned_lines, index_t planes,
                                  index_t plane_nnz, index_t send_lines = 0);

  // b and p: cell_count entries on the executor, in the order given at construction (on several
  // ranks: owned then halo cells; only owned entries are read, only owned entries of p are
  // written). warm_start: start from p (else from zero); p is overwritten by the solution.
  // Collective on several ranks.
  FftPoissonResult solve(const Vector& b, Vector& p, bool warm_start = false);

  // Selects `blocks` leading blocks of the options' kind, 0 ≤ blocks ≤ the preconditioner's blocks().
  // Returns "" when done, else why they are unavailable (a factor or hierarchy that cannot be computed,
  // or "on another rank"), the configuration then as it was. Collective on several ranks: the same
  // answer on every rank.
  std::string try_leading_blocks(int blocks);
  // The slowest rank's `seconds` (on one rank: `seconds`), so that timed choices agree on every rank.
  // Collective on several ranks.
  double slowest_rank(double seconds) const;

  const Extrusion& extrusion() const { return extrusion_; }
  const FftPoissonOptions& options() const { return options_; }
  BatchedPcg& batched_pcg() { return *pcg_; }
  // The preconditioner per block, and how it was chosen (with the measured costs when tuned).
  const std::string& configuration() const { return configuration_; }

 private:
  void tune_preconditioner(StageProfile* profile);

  Executor exec_;
  Extrusion extrusion_;
  FftPoissonOptions options_;
  PlanePartition* plane_;
  std::unique_ptr<BatchedPcg> pcg_;
  std::unique_ptr<PeriodicFft> transform_;
  index_t owned_lines_;        // the 2D cells whose lines this rank transforms (all on one rank)
  Array<index_t> order_;       // 1D-block position i (c · Nper + j) of an owned line → index in b and p
  Vector real_;                // [c · Nper + j], owned lines
  Vector rhs_, solution_;      // complex layout, [c · mode_stride(backend, Nper) + s], owned then halo lines
  std::string configuration_;
};

}  // namespace miniapp::fft
