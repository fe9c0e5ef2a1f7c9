// No report shows a kernel kind faster than the copy bandwidth as a plain figure: above it, the
// figure is cache-resident (the step fits the cache the run keeps) or marked impossible and left out.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "miniapp/predict/achieved_bandwidth.hpp"
#include "tests/output/scratch_dir.hpp"
#include "tests/predict/synthetic_calibration.hpp"

namespace miniapp::predict {
namespace {

// One step whose SpMV moves 1 GB and AXPY 0.5 GB, measured at `axpy_seconds` for the AXPY (20 GB/s
// copy bandwidth: 0.05 s for 1 GB), working set `working_set` bytes.
PredictionReport report(double axpy_seconds, double working_set) {
  PredictionReport r;
  r.calibration = test::synthetic_calibration();
  r.counts.fixed[0][static_cast<int>(KernelKind::spmv)] = {10, 1e9, 2e8};
  r.counts.fixed[0][static_cast<int>(KernelKind::axpy)] = {10, 5e8, 1e8};
  r.scaling.push_back(predict_step(r.counts, r.calibration, 0, working_set, 1));
  StepMeasurement m;
  m.steps = 1;
  m.kernel_seconds[0][static_cast<int>(KernelKind::spmv)] = 0.055;
  m.kernel_seconds[0][static_cast<int>(KernelKind::axpy)] = axpy_seconds;
  r.measured = m;
  r.at_measured = r.scaling.front();
  return r;
}

const AchievedBandwidth& of(const std::vector<AchievedBandwidth>& all, KernelKind kind) {
  for (const AchievedBandwidth& a : all)
    if (a.kind == kind) return a;
  FAIL("no figure for " << name(kind));
  return all.front();
}

TEST_CASE("Achieved bandwidth above the copy bandwidth is labelled or refused", "[predict][bandwidth]") {
  const double copy = test::synthetic_calibration().copy_gb_per_s;
  const double out_of_cache = 1e12;
  SECTION("at the copy bandwidth") {
    const auto all = achieved_bandwidth(report(0.026, out_of_cache));
    CHECK(of(all, KernelKind::spmv).gb_per_s == Approx(1e9 / 0.055 * 1e-9));
    CHECK(of(all, KernelKind::spmv).standing == BandwidthStanding::within);
    CHECK(of(all, KernelKind::axpy).standing == BandwidthStanding::within);
  }
  SECTION("bytes counted without their time (a fused kernel's time booked elsewhere)") {
    const auto all = achieved_bandwidth(report(1e-5, out_of_cache));
    CHECK(of(all, KernelKind::axpy).gb_per_s > 9 * copy);
    CHECK(of(all, KernelKind::axpy).standing == BandwidthStanding::impossible);
    CHECK(of(all, KernelKind::spmv).standing == BandwidthStanding::within);
  }
  SECTION("a step inside the cache may beat the copy bandwidth") {
    const auto all = achieved_bandwidth(report(1e-3, 1e5));
    CHECK(of(all, KernelKind::axpy).standing == BandwidthStanding::cache_resident);
  }
}

TEST_CASE("The report's JSON and Markdown never give an impossible bandwidth as a figure", "[predict][bandwidth]") {
  output::test::ScratchDir dir("predict_bandwidth");
  PredictionReport r = report(1e-5, 1e12);
  r.case_name = "fused";
  const std::string json = (dir.path() / "r.json").string(), md = (dir.path() / "r.md").string();
  write_report_json(json, r);
  write_report_markdown(md, r);
  const auto root = nlohmann::json::parse(output::test::read_text(json));
  for (const auto& k : root["achieved_bandwidth"]) {
    INFO(k.dump());
    const bool above = k["gb_per_s"].get<double>() > copy_bandwidth_spread * r.calibration.copy_gb_per_s;
    CHECK(k["plotted"].get<bool>() == !above);
  }
  CHECK_THAT(output::test::read_text(md), Catch::Contains("| axpy | 0.5000 | 0.0100 | - | impossible"));
}

}  // namespace
}  // namespace miniapp::predict
