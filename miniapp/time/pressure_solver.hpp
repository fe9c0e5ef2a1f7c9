#pragma once
#include <iosfwd>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/stage_profile.hpp"
#include "mesh/geometry.hpp"
#include "mesh/mesh.hpp"
#include "miniapp/time/frequency_block_choice.hpp"
#include "operators/sparse/reorder.hpp"
#include "parallel/local_numbering.hpp"
#include "solvers/fft/fft_poisson.hpp"
#include "solvers/pcg.hpp"

namespace miniapp::time {

// Step 2.2 of the fractional step: −L p = b on the executor, cells in the operators' order
// (fv::FlowOperators::cell_order). The report is PcgResult's whatever the method.
class PressureSolver {
 public:
  virtual ~PressureSolver() = default;
  // Overwrites `pressure` (its incoming value is the previous step's pressure, a starting guess for
  // the methods that can use one) with step `step`'s (fields' step + 1: a solver may treat given
  // steps apart). Does not throw when the iteration cap is hit: the result says so.
  virtual PcgResult solve(const Vector& rhs, Vector& pressure, long step) = 0;

  // Choices made at set-up by timing, which another run on a busy machine may make otherwise: a
  // checkpoint carries them so that a restart solves as the run it continues (bitwise). Named values;
  // none for the methods that time nothing.
  using Choices = std::vector<std::pair<std::string, double>>;
  virtual Choices timed_choices() const { return {}; }
  // Makes the choices of `choices` (timed_choices of the same case) again, ignoring names it does not
  // make; returns what now differs from the set-up's choice ("" when nothing).
  virtual std::string repeat_choices(const Choices& /*choices*/) { return ""; }
  // Whether solves of steps to come still time configurations to choose from (measurements of the
  // run's own steps begin after them).
  virtual bool choosing() const { return false; }
  // What the timed solves chose, once, after the step that chose it; "" otherwise.
  virtual std::string new_choice() { return ""; }
  // What the run's summary adds about the solves (nothing by default).
  virtual void print_report(std::ostream&) const {}
};

// PCG on the whole mesh with a preconditioner, warm-started from the previous pressure; any backend.
class PcgPressureSolver final : public PressureSolver {
 public:
  // `minus_laplacian` (−L on `exec`) must outlive the solver; options.singular as in PcgOptions.
  PcgPressureSolver(const Executor& exec, const DeviceSell& minus_laplacian,
                    std::unique_ptr<Preconditioner> preconditioner, const PcgOptions& options);
  PcgResult solve(const Vector& rhs, Vector& pressure, long step) override;

 private:
  const DeviceSell& matrix_;
  std::unique_ptr<Preconditioner> preconditioner_;
  PcgOptions options_;
  Pcg pcg_;
};

// Throws miniapp::Error when the FFT path cannot run on `exec`: a CUDA executor in a build whose FFT
// path lacks CUDA (cuFFT and the batched kernels are built with the CUDA backend).
void require_fft_backend(const Executor& exec);

// fft::FftPoisson in the time loop (thesis ch. 4), on the executor: b and the pressure stay in the
// operators' order and on the device (FftPoisson gathers them into the 1D-block order). Warm start:
// the previous pressure, transformed, is the initial guess of every frequency system. The low
// frequencies' blocks take AIP or AMG (`preconditioning`), how many of them set by the case or chosen
// on the solves of the time loop's first steps (FrequencyBlockChoice; configuration()).
// iterations: the maximum over the frequency systems; relative_residual: the largest of theirs (each
// system stops at tolerance · ‖b̂_s‖₂).
class FftPressureSolver final : public PressureSolver {
 public:
  // Several ranks: the mesh is the rank's (parallel::extract_local_mesh of a partition by whole
  // periodic lines, parallel::partition_lines), `cells` its numbering, `domain` its Subdomain (its
  // communicator, and its observer sees the frequency solves' communication); halo values of the
  // frequency systems travel by `transport`.
  struct Ranks {
    const parallel::Subdomain& domain;
    const parallel::LocalNumbering& cells;
    parallel::HaloTransport transport = parallel::HaloTransport::mpi;
  };

  // `laplacian`: L in the operators' cell order (fv::FlowOperators::laplacian); `cell_order`: that
  // order (new_to_old). Prints the chosen preconditioner configuration to `log` when given. Throws
  // miniapp::Error from require_fft_backend, or with fft::detect_extrusion's or
  // fft::split_extruded_operator's message when the mesh is not a uniform periodic extrusion along z
  // with an even number of layers (on several ranks: on every rank, fft::plane_numbering's when the
  // mesh was not partitioned by lines). `ranks`: nullptr on one rank; collective otherwise. The
  // pressure's halo is not updated by solve (the integrator does it with its other halo updates).
  // `profile`: where the set-up's parts add their times, if given.
  FftPressureSolver(const Executor& exec, const mesh::Mesh& mesh, const mesh::MeshGeometry& geometry,
                    const CsrMatrix& laplacian, const Permutation& cell_order, const PcgOptions& options,
                    const fft::FrequencyPreconditioning& preconditioning, std::ostream* log = nullptr,
                    const Ranks* ranks = nullptr, StageProfile* profile = nullptr);
  PcgResult solve(const Vector& rhs, Vector& pressure, long step) override;
  // The iterations per solve of each frequency, averaged over the solves so far.
  void print_report(std::ostream& out) const override;
  std::string configuration() const;
  // The timed choice of the leading blocks; nullptr where the case sets them.
  const FrequencyBlockChoice* block_choice() const { return choice_.get(); }
  // The frequency preconditioner's leading blocks ("fft_leading_blocks": their number, negative when
  // they are AMG's), once chosen or where the case sets them.
  Choices timed_choices() const override;
  std::string repeat_choices(const Choices& choices) override;
  bool choosing() const override { return choice_ && !choice_->chosen(); }
  std::string new_choice() override;

 private:
  fft::BatchedPcgOptions options_;
  std::vector<long long> frequency_iterations_;  // per frequency, summed over the solves
  long long solves_ = 0;
  std::unique_ptr<fft::PlanePartition> plane_;  // several ranks
  std::unique_ptr<fft::FftPoisson> poisson_;
  std::unique_ptr<FrequencyBlockChoice> choice_;  // where the case leaves the leading blocks to timing
  bool choice_told_ = false;
};

}  // namespace miniapp::time
