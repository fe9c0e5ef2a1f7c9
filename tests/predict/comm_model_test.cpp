// The communication model on synthetic calibrations: a linear latency/bandwidth is reproduced
// exactly, the allreduce latency follows log2 of the rank count, and the overlap hides at most the
// halo time.
#include <cmath>

#include <catch2/catch.hpp>

#include "miniapp/predict/prediction.hpp"
#include "tests/predict/synthetic_calibration.hpp"

namespace miniapp::predict {
namespace {

TEST_CASE("A halo update on a linear latency/bandwidth is priced exactly", "[predict]") {
  const test::LinearHalo halo{3e-6, 2e9, 4};  // the whole rank moves 2 GB/s with 4 neighbours
  const CommCalibration c = test::synthetic_communication(halo);
  for (const double vectors : {1.0, 3.0})
    for (const double neighbours : {1.0, 2.0, 6.0})
      for (const double message : {8.0, 1e3, 3.3e5, 4e6}) {
        const double bytes = vectors * neighbours * message;
        CHECK(c.halo_seconds(2, vectors, neighbours, bytes) == Approx(halo.latency + bytes / halo.bandwidth).epsilon(1e-12));
      }
  CHECK(c.halo_seconds(2, 1, 1, 0) == 0);
}

TEST_CASE("The allreduce latency is interpolated in log2 of the ranks", "[predict]") {
  CommCalibration c = test::synthetic_communication({1e-6, 1e9, 1});
  c.allreduce = {{2, 2e-6}, {4, 3e-6}, {8, 4e-6}};  // 1 µs + 1 µs · log2 P
  CHECK(c.allreduce_seconds(1) == 0);
  for (const int p : {2, 3, 4, 6, 8, 16, 64})
    CHECK(c.allreduce_seconds(p) == Approx(1e-6 + 1e-6 * std::log2(p)));
}

TEST_CASE("A phase's communication: halo, overlap and reductions", "[predict]") {
  const test::LinearHalo halo{5e-6, 1e9, 1};
  CommCalibration c = test::synthetic_communication(halo);
  c.allreduce = {{2, 2e-6}};
  CommLoad l;
  l.updates = 2, l.overlapped_updates = 1, l.vectors = 2, l.messages = 2, l.sent_bytes = 2e4;
  l.reductions = 3;
  const double one = halo.latency + 1e4 / halo.bandwidth;  // 15 µs per update
  const CommCost small = price_comm(l, c, 2, 4e-6);        // inner SpMV 4 µs: hides 4 µs
  CHECK(small.halo == Approx(2 * one));
  CHECK(small.hidden == Approx(4e-6));
  CHECK(small.reductions == Approx(6e-6));
  const CommCost large = price_comm(l, c, 2, 1e-3);  // inner SpMV longer than the update: all hidden
  CHECK(large.hidden == Approx(one));
  CHECK(large.seconds() == Approx(one + 6e-6));
}

TEST_CASE("Communication adds to the phases only with a calibration and several devices", "[predict]") {
  Calibration c = test::synthetic_calibration();
  StepCounts counts;
  counts.per_iteration[static_cast<int>(KernelKind::spmv)] = {1, 1e5, 0};
  counts.comm_per_iteration.updates = 1, counts.comm_per_iteration.vectors = 1;
  counts.comm_per_iteration.messages = 1, counts.comm_per_iteration.sent_bytes = 800;
  counts.comm_per_iteration.reductions = 2;
  const StepPrediction without = predict_rank_step(counts, c, 10, 1e5, 2);
  CHECK(without.communication_seconds == 0);
  CHECK_FALSE(without.communication_modelled);
  c.communication = test::synthetic_communication({1e-6, 1e9, 1});
  c.communication->allreduce = {{2, 3e-6}};
  const StepPrediction with = predict_rank_step(counts, c, 10, 1e5, 2);
  CHECK(with.communication_modelled);
  CHECK(with.communication_seconds == Approx(10 * (1e-6 + 800 / 1e9 + 2 * 3e-6)));
  CHECK(with.seconds == Approx(without.seconds + with.communication_seconds));
  CHECK(predict_rank_step(counts, c, 10, 1e5, 1).communication_seconds == 0);
}

TEST_CASE("A unit timed on the ranks prices their iteration, its communication inside", "[predict]") {
  Calibration c = test::with_iteration_curves(test::synthetic_calibration(1e9));
  c.communication = test::synthetic_communication({1e-6, 1e9, 1});
  c.communication->allreduce = {{2, 3e-6}};
  const test::LinearCost on_ranks{40e-6, 2e8};
  std::vector<CostPoint> points;
  for (const auto& [b, calls] : {std::pair{1e4, 20.0}, {1e5, 22.0}, {1e6, 24.0}})
    points.push_back({b, on_ranks.seconds(b, calls), calls});
  c.communication->iterations.push_back({2, IterationUnit::pcg_amg, CostCurve(points)});
  StepCounts counts;
  counts.per_iteration[static_cast<int>(KernelKind::spmv)] = {10, 2e5, 0};
  counts.per_iteration[static_cast<int>(KernelKind::axpy)] = {11, 1e5, 0};
  counts.comm_per_iteration.updates = 1, counts.comm_per_iteration.vectors = 1;
  counts.comm_per_iteration.messages = 1, counts.comm_per_iteration.sent_bytes = 800;
  counts.comm_per_iteration.reductions = 2;
  counts.iteration_unit = IterationUnit::pcg_amg;
  const StepPrediction two = predict_rank_step(counts, c, 10, 1e5, 2);
  CHECK(two.iteration_unit_ranks == 2);
  CHECK(iteration_pricing(two) == "unit pcg_amg on 2 ranks");
  CHECK(two.iteration_seconds == Approx(on_ranks.seconds(3e5, 21)).epsilon(1e-12));  // nothing added
  CHECK(two.communication_seconds == 0);
  // No unit timed on 3 ranks: the one-rank unit prices the kernels, the halo and reductions are added.
  const StepPrediction three = predict_rank_step(counts, c, 10, 1e5, 3);
  CHECK(three.iteration_unit_ranks == 0);
  CHECK(iteration_pricing(three) == "unit pcg_amg");
  CHECK(three.iteration_seconds ==
        Approx(test::iteration_cost(IterationUnit::pcg_amg).seconds(3e5, 21) + 1e-6 + 800 / 1e9 + 2 * 3e-6)
            .epsilon(1e-9));
  // Nor on another device: the ranks' unit holds their communication, which it does not scale.
  CHECK(predict_rank_step(counts, c.what_if(40, -1, "twice"), 10, 1e5, 2).iteration_unit_ranks == 0);
}

}  // namespace
}  // namespace miniapp::predict
