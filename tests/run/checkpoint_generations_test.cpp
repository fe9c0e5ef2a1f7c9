// Checkpoint generations through whole runs: the newest N kept, a damaged newest one skipped with a
// message, a restart with changed physics refused with the list of changes, a restart already at
// its end reported, and observers' extra arrays and scalars carried through.
#include <catch2/catch.hpp>

#include <filesystem>
#include <sstream>

#include "miniapp/output/checkpoint.hpp"
#include "miniapp/output/checkpoint_generations.hpp"
#include "miniapp/run/checkpoints.hpp"
#include "tests/run/run_test_support.hpp"

namespace miniapp::run::test {
namespace {

std::vector<std::string> cavity(const ScratchDir& dir, long steps, std::vector<std::string> more = {}) {
  more.insert(more.end(), {"mesh.cells=[8,8,1]", "output.interval=0", "output.fields=[]", "numerics.dt=0.01",
                           "output.checkpoint_interval=0.02", "run.max_steps=" + std::to_string(steps),
                           "output.directory=" + dir.path().string()});
  return more;
}

RunSummary restart(Simulation& sim, const ScratchDir& dir, std::string& log) {
  std::ostringstream out;
  RunOptions options;
  options.restart_dir = dir.path().string();
  options.quiet = true;
  const RunSummary summary = run_simulation(sim, options, out);
  log = out.str();
  return summary;
}

TEST_CASE("A run keeps the newest checkpoint generations, as many as asked", "[run][checkpoint]") {
  ScratchDir dir("generations_keep");
  Simulation sim = make_simulation("cavity", cavity(dir, 10, {"output.checkpoint_keep=3"}));
  run_quietly(sim);
  CHECK(output::complete_generations(dir.path()) == std::vector<long>{10, 8, 6});
  CHECK_FALSE(std::filesystem::exists(output::checkpoint_path(dir.path(), 4, 0)));
}

TEST_CASE("A restart skips a damaged newest generation and says so", "[run][checkpoint]") {
  ScratchDir dir("generations_fallback");
  Simulation first = make_simulation("cavity", cavity(dir, 6));
  run_quietly(first);
  const auto newest = output::checkpoint_path(dir.path(), 6, 0);
  std::string bytes = output::test::read_text(newest);
  bytes[bytes.size() / 2] ^= 0x20;
  output::test::write_text(newest, bytes);

  Simulation second = make_simulation("cavity", cavity(dir, 8));
  std::string log;
  const RunSummary summary = restart(second, dir, log);
  CHECK_THAT(log, Catch::Contains("the checkpoint at step 6 is unusable") && Catch::Contains("checksum mismatch") &&
                      Catch::Contains("fell back to the checkpoint at step 4"));
  CHECK(summary.steps == 4);
  CHECK(second.fields->step == 8);
}

TEST_CASE("A restart with changed physics is refused with the list of changes", "[run][checkpoint]") {
  ScratchDir dir("generations_physics");
  Simulation first = make_simulation("cavity", cavity(dir, 4));
  run_quietly(first);
  Simulation changed = make_simulation(
      "cavity", cavity(dir, 8, {"physics.re=400", "physics.les=wale", "boundary.ymax.velocity=[2,0,0]"}));
  CHECK_THROWS_WITH(run_quietly(changed, dir.path().string()),
                    Catch::Contains("physics.re: 100 in the checkpoint, 400 now") &&
                        Catch::Contains("physics.les: none in the checkpoint, wale now") &&
                        Catch::Contains("boundary.ymax.velocity: [1, 0, 0] in the checkpoint, [2, 0, 0] now"));
  // The refusal changes nothing on disk.
  CHECK(output::complete_generations(dir.path()) == std::vector<long>{4, 2});
}

TEST_CASE("A restart already at its end says so and takes no step", "[run][checkpoint]") {
  ScratchDir dir("generations_done");
  Simulation first = make_simulation("cavity", cavity(dir, 4));
  run_quietly(first);
  Simulation again = make_simulation("cavity", cavity(dir, 4));
  std::string log;
  CHECK(restart(again, dir, log).steps == 0);
  CHECK_THAT(log, Catch::Contains("nothing to do") && Catch::Contains("run.max_steps = 4"));
}

TEST_CASE("A folder without a complete generation is refused", "[run][checkpoint]") {
  ScratchDir dir("generations_none");
  Simulation sim = make_simulation("cavity", cavity(dir, 4));
  CHECK_THROWS_WITH(run_quietly(sim, dir.path().string()), Catch::Contains("holds no complete checkpoint"));
}

TEST_CASE("Observers' arrays and scalars travel through a checkpoint", "[run][checkpoint]") {
  ScratchDir dir("generations_extra");
  Simulation sim = make_simulation("cavity", cavity(dir, 2));
  run_quietly(sim);
  output::CheckpointData extra;
  extra.arrays = {{"mean_u", std::vector<double>(64, 0.25)}};
  extra.scalars = {{"samples", 17}};
  save_checkpoint(sim, dir.path().string(), 2, extra);  // a new generation at the same step replaces it

  Simulation again = make_simulation("cavity", cavity(dir, 4));
  std::ostringstream log;
  const output::CheckpointData restored = restore_checkpoint(again, dir.path().string(), log);
  CHECK(restored.scalar("samples") == 17);
  CHECK(restored.array("mean_u", 64)[63] == 0.25);
  CHECK(again.fields->step == 2);
}

}  // namespace
}  // namespace miniapp::run::test
