// The communication counts of a step on several ranks (run under mpirun, like tests/parallel): what
// the recorder, attached to the Subdomain as its CommObserver, attributes to each phase is what the
// time loop does, and the bytes are those of the partition's halos.
#include <catch2/catch.hpp>

#include "miniapp/case/case_catalog.hpp"
#include "miniapp/case/case_parser.hpp"
#include "miniapp/predict/rank_iteration_calibration.hpp"
#include "miniapp/predict/rank_profile.hpp"
#include "miniapp/predict/step_profile.hpp"
#include "operators/kernels/vector_ops.hpp"

namespace miniapp::predict {
namespace {

using time::Phase;

// On the CPU backend: on a host with fewer GPUs than ranks the automatic choice would refuse to start.
run::Simulation set_up(const std::string& name, std::vector<std::string> overrides, const parallel::Communicator& comm) {
  overrides.insert(overrides.end(), {"output.fields=[]", "numerics.backend=\"cpu\""});
  const std::string path = cases::case_path(name);
  std::ostringstream log;
  return run::set_up_simulation(cases::load_case(path, overrides), path, log, &comm);
}

const CommLoad& phase(const StepCounts& c, Phase p) { return c.comm_fixed[static_cast<int>(p)]; }

TEST_CASE("The recorder sees a Subdomain's halo updates and reductions as made", "[mpi][predict]") {
  const parallel::Communicator comm;
  if (comm.size() < 2) return;
  run::Simulation sim = set_up("cavity", {"mesh.cells=[12,12,1]"}, comm);
  parallel::Subdomain& d = *sim.domain;
  Vector a(sim.exec, d.local_count()), b(sim.exec, d.local_count()), c(sim.exec, d.local_count());
  fill(sim.exec, 1.0, a), fill(sim.exec, 2.0, b), fill(sim.exec, 0.0, c);
  d.update_halo(a);  // before the recorder: not seen
  CommRecorder recorder(d, sim.exec.counters());
  Vector* both[] = {&a, &b};
  d.update_halo(both);
  d.dot(sim.exec, a, b);
  d.min(1.0);
  d.start_halo_update(a);
  axpby(sim.exec, 1.0, b, 0.0, c);  // work while the messages travel, as the inner SpMV does
  d.finish_halo_update(a);
  const CommRecord r = recorder.take();
  REQUIRE(r.updates.size() == 2);
  const HaloUpdateRecord& pair = r.updates[0];
  CHECK(pair.vectors == 2);
  double received = 0, sent = 0;
  for (const auto& [rank, bytes] : pair.received_bytes) received += bytes;
  for (const auto& [rank, bytes] : pair.sent_bytes) sent += bytes;
  CHECK(received == 2 * 8.0 * static_cast<double>(d.local_count() - d.owned_count()));  // every halo cell, twice
  CHECK(comm.allreduce(sent, parallel::ReduceOp::sum) == comm.allreduce(received, parallel::ReduceOp::sum));
  CHECK(pair.overlapped.calls == 0);  // its own pack and unpack copies only
  CHECK(pair.seconds >= 0);
  const HaloUpdateRecord& split = r.updates[1];
  CHECK(split.vectors == 1);
  CHECK(split.overlapped.calls == 1);  // the axpby
  CHECK(split.overlapped.flops > 0);
  CHECK(split.position > pair.position);
  REQUIRE(r.reductions.size() == 2);
  CHECK(r.reductions[0].values == 1);
  CHECK(r.reductions[0].position >= pair.position);
  CHECK(r.reductions[1].position == r.reductions[0].position);  // no kernel before the min
  CHECK(recorder.take().updates.empty());  // taken
}

TEST_CASE("A recorder detaches itself: the next one sees only its own events", "[mpi][predict]") {
  const parallel::Communicator comm;
  if (comm.size() < 2) return;
  run::Simulation sim = set_up("cavity", {"mesh.cells=[12,12,1]"}, comm);
  parallel::Subdomain& d = *sim.domain;
  Vector a(sim.exec, d.local_count());
  fill(sim.exec, 1.0, a);
  { CommRecorder first(d, sim.exec.counters()); }
  d.update_halo(a);  // no observer: a dangling one would be called here
  d.sum(1.0);
  CommRecorder second(d, sim.exec.counters());
  d.max(1.0);
  const CommRecord r = second.take();
  CHECK(r.updates.empty());
  CHECK(r.reductions.size() == 1);
}

TEST_CASE("The communication counts of a step are the time loop's", "[mpi][predict]") {
  const parallel::Communicator comm;
  if (comm.size() < 2) return;
  const bool les = GENERATE(false, true);
  // PCG for the pressure ("auto" takes the FFT path on this periodic hex box, also on several ranks).
  run::Simulation sim = les ? set_up("taylor-green-3d", {"mesh.cells=[6,6,6]", "physics.les=\"wale\"",
                                                         "numerics.poisson=\"pcg\""}, comm)
                            : set_up("cavity", {"mesh.cells=[16,16,1]"}, comm);
  CAPTURE(les);
  const StepCounts c = count_step(sim, 2);
  // predict: uᵖ (3 vectors in one update); correct: u (3); the PCG: one overlapped update of the search
  // direction and pᵀAp, (r·r, r·z) per iteration; the solve's end: p; the time step: the min of Δt.
  CHECK(phase(c, Phase::predictor).updates == Approx(1));
  CHECK(phase(c, Phase::predictor).vectors == Approx(3));
  CHECK(phase(c, Phase::correction).updates == Approx(1));
  CHECK(phase(c, Phase::correction).vectors == Approx(3));
  CHECK(phase(c, Phase::poisson_rhs).updates == 0);
  CHECK(phase(c, Phase::face_velocity).updates == 0);
  CHECK(phase(c, Phase::time_step).reductions == Approx(1));
  CHECK(phase(c, Phase::time_step).updates == 0);
  CHECK(phase(c, Phase::eddy_viscosity).updates == Approx(les ? 1 : 0));
  CHECK(c.comm_per_iteration.updates == Approx(1));
  CHECK(c.comm_per_iteration.overlapped_updates == Approx(1));
  CHECK(c.comm_per_iteration.vectors == Approx(1));
  CHECK(c.comm_per_iteration.reductions == Approx(2));
  CHECK(c.comm_per_iteration.overlapped_calls == Approx(1));  // the inner SpMV
  // Bytes: every rank receives its halo once per vector; what all ranks send, all receive.
  const double halo = static_cast<double>(sim.domain->local_count() - sim.domain->owned_count());
  CHECK(phase(c, Phase::predictor).received_bytes == Approx(3 * 8 * halo));
  CHECK(c.comm_per_iteration.received_bytes == Approx(8 * halo));
  CHECK(comm.allreduce(phase(c, Phase::predictor).sent_bytes, parallel::ReduceOp::sum) ==
        Approx(comm.allreduce(phase(c, Phase::predictor).received_bytes, parallel::ReduceOp::sum)));
  RankProfile mine;
  mine.counts = c;
  mine.counts.launched_per_iteration = 1.0 + 0.01 * comm.rank();  // a value of each rank's own
  mine.shape.halo = halo;
  const std::vector<RankProfile> all = gather_profiles(&comm, mine);
  REQUIRE(static_cast<int>(all.size()) == comm.size());
  CHECK(all[comm.rank()].shape.halo == halo);
  for (int r = 0; r < comm.size(); ++r) CHECK(all[r].counts.launched_per_iteration == Approx(1.0 + 0.01 * r));
  CHECK(all[comm.rank()].counts.comm_per_iteration.received_bytes == c.comm_per_iteration.received_bytes);
  constexpr int vectors = static_cast<int>(SpmvForm::sell_vectors), predictor = static_cast<int>(Phase::predictor);
  REQUIRE(c.fixed_spmv[predictor][vectors].calls > 0);
  CHECK(all[comm.rank()].counts.fixed_spmv[predictor][vectors].bytes == c.fixed_spmv[predictor][vectors].bytes);
  // AIP-1 on several ranks (block AIP) has no unit timed on the ranks: its kernels are priced.
  CHECK_FALSE(c.iteration_unit);
}

TEST_CASE("On the FFT path the frequency solves' halo updates and sums are counted", "[mpi][predict]") {
  const parallel::Communicator comm;
  if (comm.size() < 2) return;
  // Whole periodic lines on each rank; Jacobi on every frequency (no leading block to choose).
  run::Simulation sim = set_up("taylor-green-3d", {"mesh.cells=[24,24,8]", "numerics.poisson=\"fft\"",
                                                   "numerics.fft_low_frequency_blocks=0"}, comm);
  const StepCounts c = count_step(sim, 2);
  // Per iteration: the search direction's halo lines, every active system in one message per
  // neighbour, and two sums over the ranks (the curvatures; then r·z and r·r together); per solve
  // the initial guess's halo and two sums (its start, the mean's removal), which the fit spreads over
  // the iterations when every step queues as many.
  CHECK(c.comm_per_iteration.updates >= Approx(1));
  CHECK(c.comm_per_iteration.updates < 1.5);
  CHECK(c.comm_per_iteration.vectors == Approx(c.comm_per_iteration.updates));
  CHECK(c.comm_per_iteration.reductions == Approx(2 * c.comm_per_iteration.updates));
  // The search direction's update is in flight while the SpMV runs over the tiles of inner rows.
  CHECK(c.comm_per_iteration.overlapped_updates == Approx(1));
  CHECK(c.comm_per_iteration.overlapped_calls == Approx(1));
  // A message carries up to every system of a halo line (Nper + 2 values), at least one; Nper = 8. (Over
  // a whole solve: the split into fixed and per iteration is a fit.)
  const double halo_lines = static_cast<double>(sim.domain->local_count() - sim.domain->owned_count()) / 8;
  const CommLoad solve = c.comm(Phase::poisson_solve, c.iterations);
  const double bytes = solve.received_bytes / solve.updates;
  CHECK(bytes > 8 * halo_lines);
  CHECK(bytes <= 8 * halo_lines * (8 + 2));
  CHECK(comm.allreduce(c.comm_per_iteration.sent_bytes, parallel::ReduceOp::sum) ==
        Approx(comm.allreduce(c.comm_per_iteration.received_bytes, parallel::ReduceOp::sum)));
  // The batched unit (timed on one rank) prices the iterations at this rank's rows: its sizes are
  // the rank's own lines, not the whole plane's.
  CHECK(c.iteration_unit == IterationUnit::batched_pcg);
  REQUIRE_FALSE(c.iteration_spread.empty());
  const double owned_lines = static_cast<double>(sim.domain->owned_count()) / 8;
  for (const IterationShare& size : c.iteration_spread) CHECK(size.rows == owned_lines);
}

TEST_CASE("On several ranks a step with AMG or Jacobi names its unit, and the ranks' units are timed", "[mpi][predict]") {
  const parallel::Communicator comm;
  if (comm.size() < 2) return;
  const std::string preconditioner = GENERATE("amg", "jacobi");
  CAPTURE(preconditioner);
  run::Simulation sim = set_up("cavity", {"mesh.cells=[16,16,1]", "numerics.preconditioner=\"" + preconditioner + "\""}, comm);
  const StepCounts c = count_step(sim, 2);
  const IterationUnit expected = preconditioner == "amg" ? IterationUnit::pcg_amg : IterationUnit::pcg_jacobi;
  CHECK(c.iteration_unit == expected);
  RankProfile mine;
  mine.counts = c;
  CHECK(gather_profiles(&comm, mine).back().counts.iteration_unit == expected);

  IterationCalibrationSettings settings;
  settings.rows = {1024, 4096};
  settings.repeat = 1;
  settings.short_solve = 2;
  settings.long_solve = 4;
  std::ostringstream log;
  const std::vector<RankIterationCurve> units =
      calibrate_rank_iterations(comm, sim.exec, parallel::HaloTransport::mpi, settings, log);
  REQUIRE(units.size() == 2);
  for (const RankIterationCurve& u : units) {
    CHECK(u.ranks == comm.size());
    REQUIRE(u.curve.points().size() == 2);
    for (const CostPoint& p : u.curve.points()) CHECK((p.bytes > 0 && p.seconds > 0 && p.calls > 0));
    CHECK(u.curve.points()[1].bytes > u.curve.points()[0].bytes);
  }
  CHECK(units[0].unit == IterationUnit::pcg_jacobi);
  // Jacobi's bytes go with the rows (4 times as many); AMG's also hold its coarse inverse, the same on both.
  CHECK(units[0].curve.points()[1].bytes > 3 * units[0].curve.points()[0].bytes);
  CHECK(units[1].unit == IterationUnit::pcg_amg);
  // A V-cycle adds SpMVs on every level, and halo updates of its own, to the same PCG iteration.
  CHECK(units[1].curve.points()[0].calls > units[0].curve.points()[0].calls + 4);
  CHECK(units[1].curve.points()[0].bytes > units[0].curve.points()[0].bytes);
}

}  // namespace
}  // namespace miniapp::predict
