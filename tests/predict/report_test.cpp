// The report renders: Markdown and JSON always (the JSON read back holds the predicted numbers), PNG
// plots where python3 with matplotlib is present.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "miniapp/predict/model_notes.hpp"
#include "miniapp/predict/report.hpp"
#include "tests/output/scratch_dir.hpp"
#include "tests/predict/synthetic_calibration.hpp"

namespace miniapp::predict {
namespace {

using output::test::read_text;
using output::test::ScratchDir;

PredictionReport synthetic_report() {
  PredictionReport r;
  r.case_name = "synthetic";
  r.case_description = "a synthetic case";
  r.cells = 1000;
  r.faces = 3000;
  r.les = true;
  r.calibration_path = "c.json";
  r.calibration = test::synthetic_calibration();
  for (int p = 0; p < time::phase_count; ++p) r.counts.fixed[p][0] = {double(p + 1), 1e5 * (p + 1), 2e4};
  r.counts.per_iteration[0] = {1, 1e5, 2e4};
  r.counts.per_iteration[1] = {3, 7e4, 1e4};
  r.counts.per_iteration_spmv[static_cast<int>(SpmvForm::csr)] = {1, 1e5, 2e4};
  r.counts.iterations = 20;
  r.counted_steps = 3;
  for (int d = 1; d <= 3; ++d) r.scaling.push_back(predict_step(r.counts, r.calibration, 20, 4e6, d));
  r.what_if = r.calibration.what_if(177, 5e-6, "Tesla M2090");
  r.what_if_step = predict_step(r.counts, *r.what_if, 20, 4e6, 1);
  StepMeasurement m;
  m.steps = 4;
  m.iterations = 20;
  m.step_seconds = 1.1 * r.scaling[0].seconds;
  for (int p = 0; p < time::phase_count; ++p) m.kernel_seconds[p][0] = m.timed_seconds[p] = r.scaling[0].phases[p].seconds;
  r.measured = m;
  r.at_measured = r.scaling[0];
  r.notes = model_notes(r);
  return r;
}

TEST_CASE("The report is written as Markdown and as JSON with every number", "[predict][report]") {
  ScratchDir dir("predict_report");
  const PredictionReport r = synthetic_report();
  const std::string md = (dir.path() / "report.md").string(), json = (dir.path() / "report.json").string();
  write_report_markdown(md, r);
  write_report_json(json, r);

  const std::string text = read_text(md);
  for (const char* section : {"# Time-step prediction: synthetic", "Table 2.1", "one device", "number of devices",
                              "What if: Tesla M2090", "Predicted against measured", "Where the model may miss",
                              "## Calibration"})
    CHECK_THAT(text, Catch::Contains(section));
  CHECK_THAT(text, Catch::Contains("-9.1 %"));  // predicted / measured wall = 1 / 1.1
  // The solve as its set-up (its calls and megabytes per step) and its iterations (calls per
  // iteration beside the thesis', megabytes of the 20 iterations).
  CHECK_THAT(text, Catch::Contains("| 2.2 Poisson solve (set-up) | 3.0 | 0.0 | 0.0 | 0.0 | 0.30 |"));
  CHECK_THAT(text, Catch::Contains("| 2.2 Poisson solve (per iteration) | 1.0 / 2 | 3.0 / 3 | 0.0 / 2 | 0.0 | 3.40 |"));

  const nlohmann::json root = nlohmann::json::parse(read_text(json));
  CHECK(root.at("case").at("cells") == 1000);
  REQUIRE(root.at("scaling").size() == 3);
  const nlohmann::json& one = root.at("scaling")[0];
  CHECK(one.at("step_seconds").get<double>() == r.scaling[0].seconds);
  CHECK(one.at("phases").size() == time::phase_count);
  CHECK(root.at("what_if").at("step_seconds").get<double>() == r.what_if_step->seconds);
  CHECK(root.at("measured").at("step_error").get<double>() == Approx(1 / 1.1 - 1));
  CHECK(root.at("kernel_counts").at("phases")[0].at("thesis_table_2_1").at("spmv") == 8);
  const nlohmann::json& forms = root.at("kernel_counts").at("per_iteration").at("spmv_forms");
  CHECK(forms.at("csr").at("calls") == 1);
  CHECK(forms.at("sell").at("calls") == 0);
  CHECK(root.at("calibration").at("curves").size() == kernel_variant_count * cache_level_count);
  CHECK(root.at("notes").size() == r.notes.size());
}

TEST_CASE("The plots are drawn where matplotlib is present", "[predict][report]") {
  if (std::system("python3 -c 'import matplotlib' >/dev/null 2>&1") != 0 &&
      std::system("/usr/bin/python3 -c 'import matplotlib' >/dev/null 2>&1") != 0) {
    WARN("python3 with matplotlib not found: plots not checked");
    return;
  }
  ScratchDir dir("predict_plots");
  const std::string json = (dir.path() / "report.json").string();
  write_report_json(json, synthetic_report());
  std::ostringstream log;
  REQUIRE(draw_plots(MINIAPP_PLOT_SCRIPT, json, dir.path().string(), log));
  for (const char* png : {"phases.png", "scaling.png", "roofline.png"}) {
    INFO(png);
    CHECK(std::filesystem::file_size(dir.path() / png) > 1000);
  }
}

TEST_CASE("The latency note counts each call at the latency of the curve that priced it", "[predict][report]") {
  // Sub-steps replayed from graphs and Poisson iterations timed whole as the AMG unit: a sub-step's call
  // costs its graph curve's latency, an iteration's call the unit's latency per call, not a launched call's.
  PredictionReport r;
  r.calibration = test::with_iteration_curves(test::with_graph_curves(test::synthetic_calibration()));
  StepCounts& c = r.counts;
  c.fixed[static_cast<int>(time::Phase::predictor)][static_cast<int>(KernelKind::axpy)] = {10, 1e4, 0};
  c.fixed[static_cast<int>(time::Phase::poisson_solve)][static_cast<int>(KernelKind::spmv)] = {2, 1e4, 0};
  c.per_iteration[static_cast<int>(KernelKind::spmv)] = {14, 1e5, 0};
  c.per_iteration[static_cast<int>(KernelKind::pointwise)] = {5, 1e4, 0};
  c.iterations = 15;
  c.iteration_unit = IterationUnit::pcg_amg;
  c.iteration_graphs = true;
  c.fixed_graphs.fill(true);
  r.scaling.push_back(predict_step(c, r.calibration, 15, 1e3, 1));
  const StepPrediction& s = r.scaling.front();
  REQUIRE(s.iteration_unit == IterationUnit::pcg_amg);
  REQUIRE(s.cache == CacheLevel::hot);  // 1 kB
  const auto graph_latency = [&](KernelKind k) {
    return test::graph_cost(priced_variant(k), CacheLevel::hot).latency;
  };
  const double latency = 10 * graph_latency(KernelKind::axpy) + 2 * graph_latency(KernelKind::spmv) +
                         15 * 19 * test::iteration_cost(IterationUnit::pcg_amg).latency;
  const double share = latency / s.seconds;
  REQUIRE(share > 0.2);
  REQUIRE(share < 1);
  const std::vector<std::string> notes = model_notes(r);
  const auto note =
      std::find_if(notes.begin(), notes.end(), [](const std::string& n) { return n.starts_with("Small mesh"); });
  REQUIRE(note != notes.end());
  CHECK_THAT(*note, Catch::StartsWith("Small mesh: " + fixed(100 * share, 0) + " % of the predicted step"));
}

}  // namespace
}  // namespace miniapp::predict
