#include "miniapp/run/pressure_path_choice.hpp"

#include <algorithm>
#include <sstream>

#include "operators/backend/synchronized_seconds.hpp"
#include "operators/kernels/vector_ops.hpp"

namespace miniapp::run {
namespace {

constexpr const char* path_choice = "poisson_path";

const char* path_name(const cases::NumericsConfig& n) {
  return n.poisson == cases::PoissonSolver::fft ? "fft" : "pcg";
}

}  // namespace

PressurePathChoice::PressurePathChoice(const Executor& exec, const parallel::Communicator* comm, Path fft_path,
                                       Path pcg_path)
    : exec_(exec), comm_(comm), paths_{std::move(fft_path), std::move(pcg_path)} {}

void PressurePathChoice::release(int path) {
  if (path == fft && paths_[fft].solver) fft_choices_ = paths_[fft].solver->timed_choices();
  paths_[path].solver.reset();
}

PcgResult PressurePathChoice::solve(const Vector& rhs, Vector& pressure, long step) {
  if (step > last_timed_step && chosen_) {
    release(1 - *chosen_);
    return paths_[*chosen_].solver->solve(rhs, pressure, step);
  }
  if (step < first_timed_step || chosen_) return paths_[fft].solver->solve(rhs, pressure, step);
  return timed_solves(rhs, pressure, step);
}

// Both paths from the same warm start (PCG's in scratch space); the FFT path's solution is the step's.
PcgResult PressurePathChoice::timed_solves(const Vector& rhs, Vector& pressure, long step) {
  if (scratch_.size() != pressure.size()) scratch_ = Vector(exec_, pressure.size());
  copy(exec_, pressure, scratch_);
  const auto timed = [&](Path& path, Vector& solution) {
    PcgResult result;
    double seconds = synchronized_seconds(exec_, [&] { result = path.solver->solve(rhs, solution, step); });
    if (comm_) seconds = comm_->allreduce(seconds, parallel::ReduceOp::max);
    path.seconds = path.seconds > 0 ? std::min(path.seconds, seconds) : seconds;
    return result;
  };
  const PcgResult result = timed(paths_[fft], pressure);
  timed(paths_[pcg], scratch_);
  if (step >= last_timed_step) {
    chosen_ = paths_[pcg].seconds < paths_[fft].seconds ? pcg : fft;
    release(1 - *chosen_);
    scratch_ = Vector();
    ++changes_;
  }
  return result;
}

PressurePathChoice::Choices PressurePathChoice::timed_choices() const {
  Choices choices;
  if (chosen_) choices.emplace_back(path_choice, *chosen_ == fft ? 1.0 : 0.0);
  const Choices own = paths_[fft].solver ? paths_[fft].solver->timed_choices() : fft_choices_;
  choices.insert(choices.end(), own.begin(), own.end());
  return choices;
}

bool PressurePathChoice::choosing() const {
  return !chosen_ || (paths_[fft].solver && paths_[fft].solver->choosing());
}

std::string PressurePathChoice::new_choice() { return paths_[fft].solver ? paths_[fft].solver->new_choice() : ""; }

std::string PressurePathChoice::repeat_choices(const Choices& choices) {
  std::string repeated;
  for (const auto& [name, value] : choices) {
    const int path = value != 0 ? fft : pcg;
    if (name != path_choice || chosen_ == path) continue;
    if (!paths_[path].solver)
      throw Error("PressurePathChoice::repeat_choices: the " + std::string(path_name(paths_[path].numerics)) +
                  " path was released once the other was chosen");
    repeated = std::string("numerics.poisson = auto: ") + path_name(paths_[path].numerics) + " from step " +
               std::to_string(last_timed_step + 1) +
               (chosen_ ? std::string(" (this run's timing chose ") + path_name(paths_[*chosen_].numerics) + ")" : "");
    chosen_ = path;
    repeated_ = true;
    ++changes_;
  }
  if (paths_[fft].solver) {
    const std::string own = paths_[fft].solver->repeat_choices(choices);
    if (!own.empty()) repeated += (repeated.empty() ? "" : "; ") + own;
  }
  return repeated;
}

void PressurePathChoice::print_report(std::ostream& out) const {
  out << describe() << "\n";
  if (path().solver) path().solver->print_report(out);
}

std::string PressurePathChoice::unreported_change() {
  if (reported_changes_ == changes_) return "";
  reported_changes_ = changes_;
  return describe();
}

std::string PressurePathChoice::describe() const {
  std::ostringstream text;
  text.precision(3);
  text << "numerics.poisson = auto: ";
  if (!chosen_) {
    text << "fft, with pcg beside it: from step " << last_timed_step + 1 << " the faster on the solves of steps "
         << first_timed_step << "-" << last_timed_step;
    return text.str();
  }
  const Path& kept = path();
  const Path& other = paths_[1 - *chosen_];
  text << path_name(kept.numerics) << " from step " << last_timed_step + 1;
  if (repeated_) text << ", as the checkpointed run chose";
  if (kept.seconds > 0)
    text << " (timed solves of steps " << first_timed_step << "-" << last_timed_step << ": " << path_name(kept.numerics)
         << " " << 1e3 * kept.seconds << " ms, " << path_name(other.numerics) << " " << 1e3 * other.seconds << " ms)";
  return text.str();
}

}  // namespace miniapp::run
