// The calibration file: round trip, and clear errors for corrupt, incomplete and foreign files.
#include <algorithm>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "miniapp/predict/calibration_file.hpp"
#include "tests/output/scratch_dir.hpp"
#include "tests/predict/synthetic_calibration.hpp"

namespace miniapp::predict {
namespace {

using output::test::read_text;
using output::test::ScratchDir;
using output::test::write_text;

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

TEST_CASE("A calibration file reads back what was written", "[predict]") {
  ScratchDir dir("calibration_round_trip");
  const std::string path = (dir.path() / "c.json").string();
  Calibration c = test::synthetic_calibration(1e6, 7.25e-6);
  c.batched_widths = {{1024, 1, 3.25}, {1024, 64, 1}, {4096, 1, 3.5}, {4096, 64, 1}};
  c.batched_amg_blocks = {{1024, 8, 2.75}, {4096, 8, 2.25}};
  write_calibration(path, c);
  const Calibration back = read_calibration(path);
  CHECK(back.batched_widths == c.batched_widths);
  CHECK(back.batched_amg_blocks == c.batched_amg_blocks);
  CHECK(back.device == c.device);
  CHECK(back.build == c.build);
  CHECK(back.date == c.date);
  CHECK(back.copy_gb_per_s == c.copy_gb_per_s);
  CHECK(back.sync_seconds == c.sync_seconds);
  CHECK(back.cache_retention == c.cache_retention);
  CHECK(back.pointwise_flops_per_second == c.pointwise_flops_per_second);
  for (int v = 0; v < kernel_variant_count; ++v)
    for (int l = 0; l < cache_level_count; ++l)
      for (const double b : {10.0, 3e3, 5e5, 1e8})
        CHECK(back.curves[v][l].seconds(b) == c.curves[v][l].seconds(b));  // bit-exact: max_digits10
  CHECK_NOTHROW(check_calibration(back, c.device, c.build, path));
}

TEST_CASE("Graph curves read back, a file without them, or of format 3, is refused", "[predict]") {
  ScratchDir dir("calibration_graph");
  const std::string path = (dir.path() / "c.json").string();
  write_calibration(path, test::synthetic_calibration());
  CHECK_FALSE(read_calibration(path).graph_curves);  // a CPU calibration: null
  const Calibration c = test::with_graph_curves(test::synthetic_calibration());
  write_calibration(path, c);
  const std::string good = read_text(path);
  const Calibration back = read_calibration(path);
  REQUIRE(back.graph_curves);
  for (int v = 0; v < kernel_variant_count; ++v)
    for (int l = 0; l < cache_level_count; ++l)
      for (const double b : {10.0, 3e3, 5e5, 1e8})
        CHECK((*back.graph_curves)[v][l].seconds(b) == (*c.graph_curves)[v][l].seconds(b));

  nlohmann::ordered_json parsed = nlohmann::ordered_json::parse(good);
  auto& graph = parsed["graph_curves"];
  graph.erase(std::find_if(graph.begin(), graph.end(),
                           [](const auto& e) { return e["kernel"] == "axpy" && e["cache"] == "warm"; }));
  write_text(path, parsed.dump(2));
  CHECK_THAT(error_of([&] { read_calibration(path); }), Catch::Contains("no warm graph curve for kernel axpy"));
  parsed.erase("graph_curves");
  write_text(path, parsed.dump(2));
  CHECK_THAT(error_of([&] { read_calibration(path); }), Catch::Contains("missing key 'graph_curves'"));

  std::string format = good;
  format.replace(format.find(calibration_format), std::string(calibration_format).size(), "miniapp-calibration 3");
  write_text(path, format);  // the version before graph curves
  CHECK_THAT(error_of([&] { read_calibration(path); }),
             Catch::Contains("format 'miniapp-calibration 3'") && Catch::Contains("--calibrate"));
}

TEST_CASE("Iteration curves read back, an unknown or repeated unit is refused", "[predict]") {
  ScratchDir dir("calibration_iterations");
  const std::string path = (dir.path() / "c.json").string();
  write_calibration(path, test::with_graph_curves(test::synthetic_calibration()));
  for (const auto& curve : read_calibration(path).iteration_curves) CHECK_FALSE(curve);  // none calibrated
  const Calibration c = test::with_iteration_curves(test::with_graph_curves(test::synthetic_calibration()));
  write_calibration(path, c);
  const std::string good = read_text(path);
  const Calibration back = read_calibration(path);
  for (int u = 0; u < iteration_unit_count; ++u) {
    REQUIRE(back.iteration_curves[u]);
    const auto& points = c.iteration_curves[u]->points();
    REQUIRE(back.iteration_curves[u]->points().size() == points.size());
    for (std::size_t i = 0; i < points.size(); ++i)
      CHECK(back.iteration_curves[u]->points()[i].calls == points[i].calls);
    for (const double b : {10.0, 3e3, 5e5, 1e9})
      CHECK(back.iteration_curves[u]->seconds(b, 17) == c.iteration_curves[u]->seconds(b, 17));
  }

  nlohmann::ordered_json parsed = nlohmann::ordered_json::parse(good);
  parsed["iteration_curves"][1]["unit"] = "pcg_aip9";
  write_text(path, parsed.dump(2));
  CHECK_THAT(error_of([&] { read_calibration(path); }),
             Catch::Contains("iteration_curves[1]") && Catch::Contains("unknown unit 'pcg_aip9'"));
  parsed["iteration_curves"][1]["unit"] = "pcg_jacobi";
  write_text(path, parsed.dump(2));
  CHECK_THAT(error_of([&] { read_calibration(path); }), Catch::Contains("a second curve for unit 'pcg_jacobi'"));
  parsed["iteration_curves"][1]["unit"] = "pcg_aip1";
  parsed["iteration_curves"][1]["points"] = nlohmann::ordered_json::array({{1e4, 2e-5, 12}});
  write_text(path, parsed.dump(2));
  CHECK_THAT(error_of([&] { read_calibration(path); }), Catch::Contains("iteration_curves[1]"));
  parsed.erase("iteration_curves");
  write_text(path, parsed.dump(2));
  CHECK_THAT(error_of([&] { read_calibration(path); }), Catch::Contains("missing key 'iteration_curves'"));
}

TEST_CASE("Iteration points without their calls, as format 5 wrote them, are refused", "[predict]") {
  ScratchDir dir("calibration_iteration_calls");
  const std::string path = (dir.path() / "c.json").string();
  write_calibration(path, test::with_iteration_curves(test::synthetic_calibration()));
  nlohmann::ordered_json parsed = nlohmann::ordered_json::parse(read_text(path));
  for (auto& entry : parsed["iteration_curves"])
    for (auto& point : entry["points"]) point.erase(2);
  write_text(path, parsed.dump(2));
  CHECK_THAT(error_of([&] { read_calibration(path); }),
             Catch::Contains(path + ": iteration_curves[0]") && Catch::Contains("[bytes, seconds, calls]"));
  // Format 5's files, and format 6's (its AMG unit timed on double matrices): refused.
  for (const std::string earlier : {"miniapp-calibration 5", "miniapp-calibration 6"}) {
    parsed["format"] = earlier;
    write_text(path, parsed.dump(2));
    CHECK_THAT(error_of([&] { read_calibration(path); }),
               Catch::Contains(path + ": format '" + earlier + "'") && Catch::Contains("run 'miniapp predict --calibrate'"));
  }
}

TEST_CASE("A calibration from another device or build is refused with the way out", "[predict]") {
  const Calibration c = test::synthetic_calibration();
  DeviceDescription other_device = c.device;
  other_device.description = "cuda:0 NVIDIA H100";
  const std::string device_error = error_of([&] { check_calibration(c, other_device, c.build, "c.json"); });
  CHECK_THAT(device_error, Catch::Contains("c.json") && Catch::Contains("synthetic device") &&
                               Catch::Contains("NVIDIA H100") && Catch::Contains("--calibrate"));
  BuildDescription other_build = c.build;
  other_build.git = "def456";
  const std::string build_error = error_of([&] { check_calibration(c, c.device, other_build, "c.json"); });
  CHECK_THAT(build_error, Catch::Contains("abc123") && Catch::Contains("def456") && Catch::Contains("--calibrate"));
}

TEST_CASE("A corrupt or incomplete calibration file is an error naming file and line", "[predict]") {
  ScratchDir dir("calibration_corrupt");
  const std::string path = (dir.path() / "c.json").string();
  write_calibration(path, test::synthetic_calibration(1e6, 7.25e-6));
  const std::string good = read_text(path);

  write_text(path, good.substr(0, good.size() / 2));  // truncated
  CHECK_THAT(error_of([&] { read_calibration(path); }), Catch::Contains(path + ":") && Catch::Contains("invalid JSON"));

  const nlohmann::ordered_json parsed = nlohmann::ordered_json::parse(good);
  nlohmann::ordered_json no_curve = parsed;
  auto& curves = no_curve["curves"];
  curves.erase(std::find_if(curves.begin(), curves.end(),
                            [](const auto& c) { return c["kernel"] == "dot" && c["cache"] == "hot"; }));
  write_text(path, no_curve.dump(2));
  CHECK_THAT(error_of([&] { read_calibration(path); }), Catch::Contains("no hot curve for kernel dot"));

  nlohmann::ordered_json negative = parsed;
  negative["curves"][0]["points"][0][0] = -1.0;  // first point's bytes negative
  write_text(path, negative.dump(2));
  CHECK_THAT(error_of([&] { read_calibration(path); }),
             Catch::Contains(path + ": curves[0]") && Catch::Contains("positive"));

  nlohmann::ordered_json kept_above_one = parsed;
  kept_above_one["cache_retention"][0][1] = 1.5;
  write_text(path, kept_above_one.dump(2));
  CHECK_THAT(error_of([&] { read_calibration(path); }),
             Catch::Contains(path + ": cache_retention") && Catch::Contains("kept must lie in [0, 1]"));
  nlohmann::ordered_json unsorted = parsed;
  unsorted["cache_retention"] = {{2e6, 1.0}, {1e6, 0.5}};
  write_text(path, unsorted.dump(2));
  CHECK_THAT(error_of([&] { read_calibration(path); }), Catch::Contains("bytes must be positive, finite and increasing"));
  nlohmann::ordered_json widths_unsorted = parsed;
  widths_unsorted["batched_widths"] = {{1024, 2, 2.0}, {1024, 1, 3.0}};
  write_text(path, widths_unsorted.dump(2));
  CHECK_THAT(error_of([&] { read_calibration(path); }),
             Catch::Contains(path + ": batched_widths") && Catch::Contains("sorted by rows, then by systems"));
  nlohmann::ordered_json width_zero = parsed;
  width_zero["batched_widths"] = {{1024, 1, 0.0}};
  write_text(path, width_zero.dump(2));
  CHECK_THAT(error_of([&] { read_calibration(path); }), Catch::Contains("must be positive and finite"));
  nlohmann::ordered_json amg_unsorted = parsed;
  amg_unsorted["batched_amg_blocks"] = {{4096, 8, 2.0}, {1024, 8, 3.0}};
  write_text(path, amg_unsorted.dump(2));
  CHECK_THAT(error_of([&] { read_calibration(path); }), Catch::Contains(path + ": batched_amg_blocks"));
  nlohmann::ordered_json negative_flops = parsed;
  negative_flops["pointwise_flops_per_s"] = -1.0;
  write_text(path, negative_flops.dump(2));
  CHECK_THAT(error_of([&] { read_calibration(path); }), Catch::Contains("pointwise_flops_per_s must be"));

  nlohmann::ordered_json wrong_type = parsed;
  wrong_type["device"]["cache_bytes"] = "big";
  write_text(path, wrong_type.dump(2));
  CHECK_THAT(error_of([&] { read_calibration(path); }),
             Catch::Contains(path + ": device") && Catch::Contains("'cache_bytes' is not a number"));

  std::string format = good;
  format.replace(format.find(calibration_format), std::string(calibration_format).size(), "miniapp-calibration 1");
  write_text(path, format);  // a file of the previous version (calls timed alone, no round trip)
  CHECK_THAT(error_of([&] { read_calibration(path); }),
             Catch::Contains("format 'miniapp-calibration 1'") && Catch::Contains("--calibrate"));

  std::string negative_sync = good;
  negative_sync.replace(negative_sync.find("\"sync_s\": ") + 10, 0, "-");
  write_text(path, negative_sync);
  CHECK_THAT(error_of([&] { read_calibration(path); }), Catch::Contains(path + ":") && Catch::Contains("sync_s"));

  CHECK_THAT(error_of([&] { read_calibration((dir.path() / "missing.json").string()); }),
             Catch::Contains("cannot open") && Catch::Contains("--calibrate"));
}

TEST_CASE("Communication costs read back, and another transport or too few ranks is refused", "[predict]") {
  ScratchDir dir("calibration_comm");
  const std::string path = (dir.path() / "c.json").string();
  Calibration c = test::synthetic_calibration();
  c.communication = test::synthetic_communication({3e-6, 2e9, 2});
  c.communication->iterations.push_back(
      {2, IterationUnit::pcg_jacobi, CostCurve({{1e4, 3e-5, 9}, {1e6, 4e-4, 9}, {1e7, 3e-3, 9}})});
  write_calibration(path, c);
  const Calibration back = read_calibration(path);
  REQUIRE(back.communication);
  CHECK(back.communication->transport == "mpi");
  CHECK(back.communication->allreduce_seconds(2) == c.communication->allreduce_seconds(2));
  for (const double b : {8.0, 5e3, 1e7})
    CHECK(back.communication->halo_seconds(2, 1, 2, b) == c.communication->halo_seconds(2, 1, 2, b));
  CHECK_NOTHROW(check_communication(back, "mpi", 2, path));
  const CostCurve* unit = back.communication->iteration_curve(IterationUnit::pcg_jacobi, 2);
  REQUIRE(unit);
  for (const double b : {1e3, 5e4, 1e8}) CHECK(unit->seconds(b, 9) == c.communication->iterations[0].curve.seconds(b, 9));
  CHECK_FALSE(back.communication->iteration_curve(IterationUnit::pcg_amg, 2));
  CHECK_FALSE(back.communication->iteration_curve(IterationUnit::pcg_jacobi, 3));
  nlohmann::ordered_json twice = nlohmann::ordered_json::parse(read_text(path));
  auto& iterations = twice["communication"]["iterations"];
  iterations.push_back(iterations[0]);
  write_text(path, twice.dump(2));
  CHECK_THAT(error_of([&] { read_calibration(path); }),
             Catch::Contains("communication.iterations[1]") && Catch::Contains("a second curve for unit 'pcg_jacobi' on 2 ranks"));
  write_calibration(path, c);

  const std::string transport_error = error_of([&] { check_communication(back, "mpi-cuda-aware", 2, path); });
  CHECK_THAT(transport_error, Catch::Contains(path) && Catch::Contains("'mpi'") &&
                                  Catch::Contains("'mpi-cuda-aware'") && Catch::Contains("--calibrate"));
  CHECK_THAT(error_of([&] { check_communication(back, "mpi", 4, path); }),
             Catch::Contains("up to 2 ranks") && Catch::Contains("mpirun -np 4"));
  const Calibration one_rank = test::synthetic_calibration();  // measured without mpirun
  CHECK_NOTHROW(check_communication(one_rank, "mpi", 1, path));
  CHECK_THAT(error_of([&] { check_communication(one_rank, "mpi", 2, path); }),
             Catch::Contains("no communication costs") && Catch::Contains("--calibrate"));

  std::string format = read_text(path);
  format.replace(format.find(calibration_format), std::string(calibration_format).size(), "miniapp-calibration 2");
  write_text(path, format);  // the version before communication costs
  CHECK_THAT(error_of([&] { read_calibration(path); }),
             Catch::Contains("format 'miniapp-calibration 2'") && Catch::Contains("--calibrate"));
}

TEST_CASE("The default calibration file is named after the device", "[predict]") {
  CHECK(default_calibration_path({"cpu", "cpu (2 threads)", 0}) == "miniapp-calibration-cpu-2-threads.json");
  CHECK(default_calibration_path({"cuda", "cuda:0 NVIDIA H100 80GB HBM3", 0}) ==
        "miniapp-calibration-cuda-0-nvidia-h100-80gb-hbm3.json");
}

}  // namespace
}  // namespace miniapp::predict
