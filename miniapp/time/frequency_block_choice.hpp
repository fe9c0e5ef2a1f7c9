#pragma once
#include <map>
#include <string>

#include "solvers/fft/fft_poisson.hpp"

namespace miniapp::time {

// How many of the FFT path's leading frequency blocks take its AIP or AMG (fft::FftPoissonOptions),
// chosen on the time loop's own solves. A run's solves start from the previous pressure and need far
// fewer iterations than solves from zero, so a dearer preconditioner saves less there: timed at set-up
// on solves from zero, AMG blocks were chosen where the run steps faster with Jacobi. Until the choice
// the path solves with Jacobi everywhere; at steps 2 and 3 the greedy search (fft::choose_aip_blocks)
// also solves the step's system with each configuration it tries, from the step's start into scratch
// space, all timed; from step 4 the fastest solves, a configuration's cost the faster of its two
// steps'. Collective on several ranks (the slowest rank's time counts, so every rank chooses alike).
class FrequencyBlockChoice {
 public:
  static constexpr long first_timed_step = 2, last_timed_step = 3;

  // `poisson` (must outlive the choice) with no leading blocks.
  FrequencyBlockChoice(const Executor& exec, fft::FftPoisson& poisson);

  // The step's warm-started solve (fft::FftPoisson::solve) with the configuration in force; at the
  // timed steps also the other configurations' solves. Step 3's makes the choice (a restart at a later
  // step without one makes it at its first solve).
  fft::FftPoissonResult solve(const Vector& rhs, Vector& pressure, long step);
  bool chosen() const { return chosen_; }
  // `blocks` leading blocks as the checkpointed run chose, without timing: from step 4, and from the
  // next solve between solves (up to step 3 Jacobi solves, as it did in that run). Throws
  // miniapp::Error where they are unavailable.
  void repeat(int blocks);
  // Before the choice, how it is made; then the configuration, how it was chosen and the executor
  // memory its blocks hold, e.g. "AMG (3 levels) on k = 0..5 (2 blocks), Jacobi on k = 6..16 (4
  // blocks); 6 systems per block; from step 4, the fastest on the solves of steps 2-3 (0 AMG: 62.6 ms
  // (327 it), 1 AMG: ...); its blocks hold 5.8 MB".
  std::string describe() const;

  struct Cost {
    double seconds = 0;  // the faster of its timed solves (the slowest rank's)
    int iterations = 0;  // that solve's, the most over the frequency systems
    std::string unavailable;
    bool operator==(const Cost&) const = default;
  };
  // By number of leading blocks, each configuration tried so far (none where the choice was repeated).
  const std::map<int, Cost>& costs() const { return costs_; }

 private:
  // Times configuration `blocks` on the step's system; its solve into `pressure` where it is the one
  // in force (`result` then its result), else into trial_ from start_.
  double timed_cost(int blocks, const Vector& rhs, Vector& pressure, fft::FftPoissonResult& result);

  Executor exec_;
  fft::FftPoisson& poisson_;
  bool chosen_ = false, repeated_ = false;
  int blocks_ = 0;  // chosen
  std::map<int, Cost> costs_;
  Vector start_, trial_;       // the step's starting pressure; another configuration's solution
};

}  // namespace miniapp::time
