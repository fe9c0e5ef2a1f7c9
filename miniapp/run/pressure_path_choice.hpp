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
// both built and the one whose timed solves are faster is kept, since the FFT path is not the faster
// one everywhere (docs/fft-poisson.md). Both are kept until the first solve, so that a restart can
// take the choice of the run it continues (repeat_choices); the other is then released.
class PressurePathChoice final : public time::PressureSolver {
 public:
  struct Path {
    cases::NumericsConfig numerics;  // poisson and preconditioner resolved for the path
    std::optional<AipForm> aip_form;  // the form its AIP took, if it has one
    std::unique_ptr<time::PressureSolver> solver;
    double seconds = 0;  // its timed solve
  };

  // Times each path's solve of one fixed random right-hand side from a zero guess, the faster of two
  // after an untimed one (a machine shared with other work adds delays, never removes them), and keeps
  // the faster path. `rows`: the rank's cells, halo included, the first `owned` of them its own; on
  // several ranks (`comm`, collective) the slowest rank's time, so that every rank keeps the same path.
  PressurePathChoice(const Executor& exec, index_t rows, index_t owned, const parallel::Communicator* comm,
                     Path fft, Path pcg);

  PcgResult solve(const Vector& rhs, Vector& pressure) override;
  // "poisson_path" (1: the FFT path, 0: PCG), then the kept path's own choices.
  Choices timed_choices() const override;
  std::string repeat_choices(const Choices& choices) override;
  void print_report(std::ostream& out) const override;

  const Path& chosen() const { return paths_[chosen_]; }
  // The FFT path, then PCG; the other than chosen() without its solver after the first solve.
  const std::array<Path, 2>& paths() const { return paths_; }
  // "numerics.poisson = auto: pcg (timed solves: pcg 12.1 ms, fft 15.3 ms)", and where a restart
  // repeated another choice, that it did.
  std::string describe() const;

 private:
  static constexpr int fft = 0, pcg = 1;
  std::array<Path, 2> paths_;
  int chosen_ = fft;
  bool repeated_ = false;  // chosen_ is the checkpointed run's choice, not this set-up's timing
};

}  // namespace miniapp::run
