#include "miniapp/run/checkpoints.hpp"

#include <cstring>
#include <functional>
#include <optional>
#include <ostream>
#include <sstream>

#include "miniapp/output/checkpoint_generations.hpp"
#include "miniapp/run/snapshot.hpp"

namespace miniapp::run {
namespace {

namespace fs = std::filesystem;

// Runs `step` on every rank; a failure on any rank throws the same error on all of them.
void on_every_rank(const Simulation& sim, const std::function<void()>& step) {
  if (const auto* comm = sim.domain->communicator()) comm->run_collectively(step);
  else step();
}

// The message of the lowest failing rank ("rank r: ..." on several ranks), or nothing when every rank
// is ok (collective).
std::optional<std::string> first_failure(const Simulation& sim, bool ok, const std::string& message) {
  const auto* comm = sim.domain->communicator();
  if (comm == nullptr) return ok ? std::nullopt : std::optional<std::string>(message);
  try {
    comm->check_collectively(ok, message);
  } catch (const parallel::CollectiveError& e) {
    return std::string(e.what());
  }
  return std::nullopt;
}

// Stops every rank with `message`, which every rank holds: reported once.
[[noreturn]] void refuse(const Simulation& sim, const std::string& message) {
  if (sim.domain->distributed()) throw parallel::CollectiveError(message);
  throw Error(message);
}

// The complete generations of `dir` as rank 0 sees them, on every rank (collective).
std::vector<long> agreed_generations(const Simulation& sim, const fs::path& dir) {
  std::vector<long> steps = output::complete_generations(dir);
  const auto* comm = sim.domain->communicator();
  if (comm == nullptr) return steps;
  std::ostringstream text;
  for (long s : steps) text << s << " ";
  std::string list = text.str();
  comm->broadcast(list, 0);
  steps.clear();
  std::istringstream in(list);
  for (long s; in >> s;) steps.push_back(s);
  return steps;
}

// Why the ranks' files of one generation do not belong together ("" when they do; collective).
std::string disagreement(const Simulation& sim, const output::CheckpointData& data) {
  const auto* comm = sim.domain->communicator();
  if (comm == nullptr) return "";
  const double earliest = comm->allreduce(data.time, parallel::ReduceOp::min);
  const double latest = comm->allreduce(data.time, parallel::ReduceOp::max);
  if (std::memcmp(&earliest, &latest, sizeof(double)) == 0) return "";
  std::ostringstream why;
  why.precision(17);
  why << "the ranks' files disagree: their times range from " << earliest << " to " << latest;
  return why.str();
}

// Reads this rank's file of the generation of `step` and checks it against this run. Sets `mismatch`
// when the file is sound but of another run (no older generation would do), else throws for damage.
output::CheckpointData read_own_file(Simulation& sim, const fs::path& dir, long step, std::string& mismatch) {
  try {
    output::CheckpointData data =
        output::read_checkpoint(dir, step, sim.rank(), sim.ranks(), output::mesh_fingerprint(sim.mesh));
    const std::string changes = output::describe_setting_changes(data.settings, case_settings(sim.config));
    if (!changes.empty())
      mismatch = output::checkpoint_path(dir, step, sim.rank()).string() +
                 ": the case changed since the checkpoint (" + changes +
                 "); a restart continues the same flow: put the settings back, or start a new run in another "
                 "output.directory";
    else
      load_checkpoint_fields(sim, data);
    return data;
  } catch (const output::CheckpointMismatch& e) {
    mismatch = e.what();
    return {};
  }
}

// Drops the generations after `step` from `dir`: the restarted run writes them again (collective).
void forget_newer_generations(const Simulation& sim, const fs::path& dir, long step,
                              const std::vector<long>& generations) {
  std::vector<long> kept;
  for (long g : generations)
    if (g <= step) kept.push_back(g);
  on_every_rank(sim, [&] {
    if (sim.rank() == 0)
      for (long g : generations)
        if (g > step) output::remove_generation_marker(dir, g);
  });
  on_every_rank(sim, [&] { output::remove_rank_files_except(dir, sim.rank(), kept); });
}

}  // namespace

void save_checkpoint(const Simulation& sim, const std::string& dir, int keep, const output::CheckpointData& extra) {
  const output::CheckpointData data = checkpoint_data(sim, extra);
  on_every_rank(sim, [&] { output::write_checkpoint_temporary(dir, sim.rank(), sim.ranks(), data); });
  on_every_rank(sim, [&] { output::commit_checkpoint(dir, data.step, sim.rank()); });
  on_every_rank(sim, [&] {
    if (sim.rank() != 0) return;
    output::mark_generation_complete(dir, data.step, sim.ranks());
    const std::vector<long> generations = output::complete_generations(dir);
    for (std::size_t i = static_cast<std::size_t>(keep); i < generations.size(); ++i)
      output::remove_generation_marker(dir, generations[i]);
  });
  on_every_rank(sim, [&] { output::remove_rank_files_except(dir, sim.rank(), output::complete_generations(dir)); });
}

output::CheckpointData restore_checkpoint(Simulation& sim, const std::string& dir, std::ostream& out) {
  const std::vector<long> generations = agreed_generations(sim, dir);
  if (generations.empty())
    refuse(sim, "cannot restart: " + dir + " holds no complete checkpoint (a generation is checkpoint_<step>_r<rank>.bin "
                "for every rank plus its marker checkpoint_<step>.complete)");
  std::string unusable;
  for (long step : generations) {
    std::string mismatch, damage;
    output::CheckpointData data;
    try {
      data = read_own_file(sim, dir, step, mismatch);
    } catch (const std::exception& e) {
      damage = e.what();
    }
    if (const auto why = first_failure(sim, mismatch.empty(), mismatch)) refuse(sim, "cannot restart: " + *why);
    std::optional<std::string> why = first_failure(sim, damage.empty(), damage);
    if (!why) why = disagreement(sim, data);
    if (why->empty()) {
      finish_restore(sim);
      if (const std::string repeated = repeat_timed_choices(sim, data); !repeated.empty())
        out << "restart   " << repeated << ", as in the checkpoint\n";
      if (!unusable.empty())
        out << "restart   fell back to the checkpoint at step " << step << " (newest usable one)\n";
      std::error_code ec;
      if (fs::equivalent(dir, sim.config.output.directory, ec)) forget_newer_generations(sim, dir, step, generations);
      return data;
    }
    out << "restart   the checkpoint at step " << step << " is unusable: " << *why << "\n";
    unusable += (unusable.empty() ? "" : "; ") + ("step " + std::to_string(step) + ": " + *why);
  }
  refuse(sim, "cannot restart: no usable checkpoint in " + dir + " (" + unusable + ")");
}

}  // namespace miniapp::run
