#include "miniapp/time/frequency_block_choice.hpp"

#include <limits>
#include <sstream>

#include "operators/backend/synchronized_seconds.hpp"
#include "operators/kernels/vector_ops.hpp"

namespace miniapp::time {

FrequencyBlockChoice::FrequencyBlockChoice(const Executor& exec, fft::FftPoisson& poisson)
    : exec_(exec), poisson_(poisson) {}

fft::FftPoissonResult FrequencyBlockChoice::solve(const Vector& rhs, Vector& pressure, long step) {
  if (repeated_ && step <= last_timed_step) {  // Jacobi, as in the run that chose
    poisson_.try_leading_blocks(0);
    const fft::FftPoissonResult result = poisson_.solve(rhs, pressure, true);
    poisson_.try_leading_blocks(blocks_);
    return result;
  }
  if (chosen_ || step < first_timed_step) return poisson_.solve(rhs, pressure, true);
  if (start_.size() != pressure.size()) {
    start_ = Vector(exec_, pressure.size());
    trial_ = Vector(exec_, pressure.size());
  }
  copy(exec_, pressure, start_);
  fft::FftPoissonResult result;
  const fft::FrequencyPreconditioner& m = poisson_.batched_pcg().preconditioner();
  const int best = fft::choose_aip_blocks(m.blocks(), [&](int blocks) { return timed_cost(blocks, rhs, pressure, result); });
  if (step < last_timed_step) {
    poisson_.try_leading_blocks(0);
    return result;
  }
  poisson_.try_leading_blocks(best);  // available: it was timed
  poisson_.batched_pcg().free_other_configurations();
  blocks_ = best;
  chosen_ = true;
  start_ = Vector();
  trial_ = Vector();
  return result;
}

double FrequencyBlockChoice::timed_cost(int blocks, const Vector& rhs, Vector& pressure,
                                        fft::FftPoissonResult& result) {
  Cost& cost = costs_[blocks];
  cost.unavailable = poisson_.try_leading_blocks(blocks);
  if (!cost.unavailable.empty()) return std::numeric_limits<double>::infinity();
  const bool in_force = blocks == 0;  // until the choice
  if (!in_force) copy(exec_, start_, trial_);
  fft::FftPoissonResult r;
  const double seconds = poisson_.slowest_rank(
      synchronized_seconds(exec_, [&] { r = poisson_.solve(rhs, in_force ? pressure : trial_, true); }));
  if (in_force) result = r;
  if (cost.seconds == 0 || seconds < cost.seconds) cost = {seconds, r.max_iterations, ""};
  return cost.seconds;
}

void FrequencyBlockChoice::repeat(int blocks) {
  if (const std::string why = poisson_.try_leading_blocks(blocks); !why.empty())
    throw Error("FFT Poisson: the checkpointed run's " + std::to_string(blocks) + " leading blocks: " + why);
  blocks_ = blocks;
  chosen_ = repeated_ = true;
  start_ = Vector();
  trial_ = Vector();
}

std::string FrequencyBlockChoice::describe() const {
  const fft::FrequencyPreconditioner& m = poisson_.batched_pcg().preconditioner();
  const char* kind = poisson_.options().preconditioning.leading == fft::LeadingPreconditioner::amg ? "AMG" : "AIP";
  std::ostringstream text;
  text.precision(3);
  text << m.describe() << "; ";
  if (!chosen_) {
    text << "from step " << last_timed_step + 1 << " the leading " << kind << " blocks that solve steps "
         << first_timed_step << "-" << last_timed_step << " fastest";
    return text.str();
  }
  text << "from step " << last_timed_step + 1;
  std::ostringstream held;
  held.precision(3);
  if (m.leading_blocks() > 0) held << "; its blocks hold " << static_cast<double>(m.leading_bytes()) / 1e6 << " MB";
  if (repeated_) return text.str() + ", as the checkpointed run chose" + held.str();
  text << ", the fastest on the solves of steps " << first_timed_step << "-" << last_timed_step << " (";
  for (auto c = costs_.begin(); c != costs_.end(); ++c) {
    text << (c == costs_.begin() ? "" : ", ") << c->first << " " << kind << ": ";
    if (c->second.unavailable.empty()) text << 1e3 * c->second.seconds << " ms (" << c->second.iterations << " it)";
    else text << "unavailable (" << c->second.unavailable << ")";
  }
  text << ")" << held.str();
  return text.str();
}

}  // namespace miniapp::time
