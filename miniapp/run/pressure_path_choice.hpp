#pragma once
#include <array>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>

#include "miniapp/case/case_config.hpp"
#include "miniapp/time/pressure_solver.hpp"
#include "operators/kernels/aip_kernels.hpp"
#include "parallel/communicator.hpp"

namespace miniapp::run {

// numerics.poisson = "auto" on a mesh the FFT path takes: that path and the PCG on the whole mesh are
// both built, since the FFT path is not the faster one everywhere (docs/fft-poisson.md), and the
// solves of the time loop choose: the FFT path solves the first steps (and makes its own timed choice,
// FrequencyBlockChoice, at steps 2 and 3); at steps 4 and 5, whose previous pressure is the warm start
// of a run's solves (solves from zero, as at set-up, favoured PCG where the FFT path steps faster),
// PCG also solves each system from the same start into scratch space, both timed; the slower path is
// then released and from step 6 the faster one solves. The steps up to 5 are therefore the FFT path's
// whatever is chosen, and a restart repeats the checkpointed run's choice.
class PressurePathChoice final : public time::PressureSolver {
 public:
  struct Path {
    cases::NumericsConfig numerics;  // poisson and preconditioner resolved for the path
    std::optional<AipForm> aip_form;  // the form its AIP took, if it has one
    std::unique_ptr<time::PressureSolver> solver;
    double seconds = 0;  // its fastest timed solve; 0 before the timed steps
  };
  static constexpr long first_timed_step = time::FrequencyBlockChoice::last_timed_step + 1,
                        last_timed_step = first_timed_step + 1;

  // `comm` (several ranks; the solves are collective): each timed solve counts as the slowest
  // rank's, so that every rank keeps the same path.
  PressurePathChoice(const Executor& exec, const parallel::Communicator* comm, Path fft, Path pcg);

  PcgResult solve(const Vector& rhs, Vector& pressure, long step) override;
  // "poisson_path" (1: the FFT path, 0: PCG) once chosen, then the FFT path's own choices.
  Choices timed_choices() const override;
  std::string repeat_choices(const Choices& choices) override;
  // Until the path is chosen, and while the FFT path chooses its own.
  bool choosing() const override;
  // The FFT path's (the path's own is unreported_change's).
  std::string new_choice() override;
  void print_report(std::ostream& out) const override;

  bool chosen() const { return chosen_.has_value(); }
  // The path that solves from step 6 once chosen, the FFT path before.
  const Path& path() const { return paths_[chosen_.value_or(fft)]; }
  // The FFT path, then PCG; the one not chosen without its solver from step 6.
  const std::array<Path, 2>& paths() const { return paths_; }
  // What the case's numerics.poisson_choice says: before the choice, how it is made; then, e.g.,
  // "numerics.poisson = auto: pcg from step 6 (timed solves of steps 4-5: pcg 1.28 ms, fft 4.87 ms)".
  std::string describe() const;
  // describe() where the kept path changed (the timing chose, a restart repeated a choice) since the
  // last call, and at the first call; "" otherwise. Cheap, for the run loop's every step.
  std::string unreported_change();

 private:
  static constexpr int fft = 0, pcg = 1;
  PcgResult timed_solves(const Vector& rhs, Vector& pressure, long step);
  void release(int path);  // the path not chosen, keeping the FFT path's choices

  Executor exec_;
  const parallel::Communicator* comm_;
  std::array<Path, 2> paths_;
  std::optional<int> chosen_;
  bool repeated_ = false;  // chosen_ is the checkpointed run's choice, not this run's timing
  int changes_ = 0, reported_changes_ = -1;  // of the kept path: made, and told by unreported_change
  Choices fft_choices_;  // the FFT path's once it is released
  Vector scratch_;       // PCG's solution in the timed steps
};

}  // namespace miniapp::run
