#include "miniapp/run/pressure_path_choice.hpp"

#include <algorithm>
#include <chrono>
#include <random>
#include <sstream>

#include "operators/kernels/vector_ops.hpp"

namespace miniapp::run {
namespace {

constexpr const char* path_choice = "poisson_path";

const char* path_name(const cases::NumericsConfig& n) {
  return n.poisson == cases::PoissonSolver::fft ? "fft" : "pcg";
}

}  // namespace

PressurePathChoice::PressurePathChoice(const Executor& exec, index_t rows, index_t owned,
                                       const parallel::Communicator* comm, Path fft_path, Path pcg_path)
    : paths_{std::move(fft_path), std::move(pcg_path)} {
  std::vector<double> host(static_cast<std::size_t>(rows), 0.0);
  std::mt19937 engine(2024 + (comm ? comm->rank() : 0));
  std::uniform_real_distribution<double> value(-1, 1);
  std::generate(host.begin(), host.begin() + owned, [&] { return value(engine); });
  Vector rhs(exec, rows), pressure(exec, rows);
  for (Path& path : paths_) {
    const auto timed_solve = [&] {
      rhs.copy_from_host(host);
      fill(exec, 0.0, pressure);
      exec.synchronize();
      const auto start = std::chrono::steady_clock::now();
      path.solver->solve(rhs, pressure);
      exec.synchronize();
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      return comm ? comm->allreduce(seconds, parallel::ReduceOp::max) : seconds;
    };
    timed_solve();
    const double first = timed_solve();
    path.seconds = std::min(first, timed_solve());
    path.solver->forget_solves();
  }
  chosen_ = paths_[pcg].seconds < paths_[fft].seconds ? pcg : fft;
}

PcgResult PressurePathChoice::solve(const Vector& rhs, Vector& pressure) {
  paths_[1 - chosen_].solver.reset();
  return paths_[chosen_].solver->solve(rhs, pressure);
}

PressurePathChoice::Choices PressurePathChoice::timed_choices() const {
  Choices choices{{path_choice, chosen_ == fft ? 1.0 : 0.0}};
  for (auto& choice : chosen().solver->timed_choices()) choices.push_back(std::move(choice));
  return choices;
}

std::string PressurePathChoice::repeat_choices(const Choices& choices) {
  std::string repeated;
  for (const auto& [name, value] : choices) {
    const int path = value != 0 ? fft : pcg;
    if (name != path_choice || path == chosen_) continue;
    if (!paths_[path].solver)
      throw Error("PressurePathChoice::repeat_choices: the " + std::string(path_name(paths_[path].numerics)) +
                  " path was released at the first solve");
    repeated = std::string("numerics.poisson = auto: ") + path_name(paths_[path].numerics) + " (set-up's timing chose " +
               path_name(chosen().numerics) + ")";
    chosen_ = path;
    repeated_ = true;
  }
  const std::string own = chosen().solver->repeat_choices(choices);
  return repeated.empty() ? own : own.empty() ? repeated : repeated + "; " + own;
}

void PressurePathChoice::print_report(std::ostream& out) const { chosen().solver->print_report(out); }

std::string PressurePathChoice::describe() const {
  const Path& other = paths_[1 - chosen_];
  std::ostringstream text;
  text.precision(3);
  text << "numerics.poisson = auto: " << path_name(chosen().numerics) << (repeated_ ? ", as the checkpointed run chose" : "")
       << " (timed solves: " << path_name(chosen().numerics) << " " << 1e3 * chosen().seconds << " ms, "
       << path_name(other.numerics) << " " << 1e3 * other.seconds << " ms)";
  return text.str();
}

}  // namespace miniapp::run
