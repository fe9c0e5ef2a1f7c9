#include "miniapp/predict/report.hpp"

#include <cstdlib>
#include <filesystem>
#include <ostream>

#include <nlohmann/json.hpp>

#include "miniapp/output/atomic_file.hpp"
#include "miniapp/predict/achieved_bandwidth.hpp"
#include "miniapp/predict/comm_json.hpp"

namespace miniapp::predict {
namespace {

using Json = nlohmann::ordered_json;

std::string kind_name(int k) { return std::string(name(static_cast<KernelKind>(k))); }
std::string phase_name(int p) { return std::string(name(static_cast<time::Phase>(p))); }

Json kind_load_json(const KindLoad& l) { return {{"calls", l.calls}, {"bytes", l.bytes}, {"flops", l.flops}}; }

// The load by kind, the SpMVs also by form.
Json load_json(const PhaseLoad& load, const SpmvForms& spmv) {
  Json out = Json::object();
  for (int k = 0; k < kernel_kind_count; ++k) out[kind_name(k)] = kind_load_json(load[k]);
  Json forms = Json::object();
  for (int f = 0; f < spmv_form_count; ++f) forms[std::string(name(static_cast<SpmvForm>(f)))] = kind_load_json(spmv[f]);
  out["spmv_forms"] = std::move(forms);
  return out;
}

Json prediction_json(const StepPrediction& s) {
  Json phases = Json::array();
  for (int p = 0; p < time::phase_count; ++p) {
    Json kernels = Json::object();
    for (int k = 0; k < kernel_kind_count; ++k) {
      const KernelCost& c = s.phases[p].kinds[k];
      kernels[kind_name(k)] = {{"calls", c.calls}, {"bytes", c.bytes}, {"seconds", c.seconds}};
    }
    const CommCost& comm = s.phases[p].comm;
    phases.push_back({{"phase", phase_name(p)}, {"seconds", s.phases[p].seconds}, {"kernels", std::move(kernels)},
                      {"communication", {{"halo_seconds", comm.halo}, {"hidden_seconds", comm.hidden},
                                         {"reduction_seconds", comm.reductions}, {"seconds", comm.seconds()}}}});
  }
  return {{"devices", s.devices}, {"iterations", s.iterations},
          {"launched_iterations", s.launched_iterations}, {"working_set_bytes_per_device", s.working_set_bytes},
          {"cache", describe(s.cache)}, {"cache_warm_share", s.cache.warm_share},
          {"iteration_cache", describe(s.iteration_cache)}, {"iteration_cache_warm_share", s.iteration_cache.warm_share},
          {"iteration_curves", iteration_pricing(s)},
          {"explicit_seconds", s.explicit_seconds}, {"iteration_seconds", s.iteration_seconds},
          {"communication_seconds", s.communication_seconds}, {"communication_modelled", s.communication_modelled},
          {"step_seconds", s.seconds}, {"phases", std::move(phases)}};
}

Json spread_json(const std::vector<IterationShare>& spread) {
  Json sizes = Json::array();
  for (const IterationShare& s : spread) sizes.push_back({{"share", s.share}, {"bytes_ratio", s.bytes_ratio}, {"systems", s.systems}, {"rows", s.rows},
                     {"preconditioner_ratio", s.preconditioner_ratio}});
  return sizes;
}

Json counts_json(const PredictionReport& r) {
  Json phases = Json::array();
  for (int p = 0; p < time::phase_count; ++p) {
    const ThesisRow& t = thesis_table_2_1[p];
    phases.push_back({{"phase", phase_name(p)},
                      {"thesis_table_2_1", {{"spmv", t.spmv}, {"axpy", t.axpy}, {"dot", t.dot}}},
                      {"fixed", load_json(r.counts.fixed[p], r.counts.fixed_spmv[p])}});
  }
  return {{"counted_steps", r.counted_steps}, {"iterations", r.counts.iterations},
          {"launched_per_iteration", r.counts.launched_per_iteration},
          {"iteration_graphs", r.counts.iteration_graphs},
          {"per_iteration", load_json(r.counts.per_iteration, r.counts.per_iteration_spmv)},
          {"iteration_spread", spread_json(r.counts.iteration_spread)},
          {"phases", std::move(phases)}};
}

Json comm_json(const CommLoad& l) {
  return {{"halo_updates", l.updates},   {"overlapped_updates", l.overlapped_updates}, {"vectors", l.vectors},
          {"messages", l.messages},      {"sent_bytes", l.sent_bytes}, {"received_bytes", l.received_bytes},
          {"reductions", l.reductions}, {"reduced_values", l.reduced_values}};
}

// Each rank's counted communication per phase and per Poisson iteration (a run on several ranks).
Json communication_counts_json(const PredictionReport& r) {
  Json ranks = Json::array();
  for (const RankProfile& p : r.rank_profiles) {
    Json phases = Json::array();
    for (int ph = 0; ph < time::phase_count; ++ph)
      phases.push_back({{"phase", phase_name(ph)}, {"fixed", comm_json(p.counts.comm_fixed[ph])}});
    ranks.push_back({{"cells", p.shape.local}, {"owned", p.shape.owned}, {"inner", p.shape.inner},
                     {"halo", p.shape.halo}, {"per_iteration", comm_json(p.counts.comm_per_iteration)},
                     {"phases", std::move(phases)}});
  }
  return {{"ranks", r.ranks}, {"transport", r.transport}, {"per_rank", std::move(ranks)}};
}

Json measurement_json(const PredictionReport& r) {
  const StepMeasurement& m = *r.measured;
  const StepPrediction& s = *r.at_measured;
  Json phases = Json::array();
  for (int p = 0; p < time::phase_count; ++p) {
    const double measured = m.phase_seconds(static_cast<time::Phase>(p));
    Json kernel_seconds = Json::object();
    for (int k = 0; k < kernel_kind_count; ++k) kernel_seconds[kind_name(k)] = m.kernel_seconds[p][k];
    phases.push_back({{"phase", phase_name(p)}, {"predicted_seconds", s.phases[p].seconds},
                      {"predicted_communication_seconds", s.phases[p].comm.seconds()},
                      {"measured_seconds", measured}, {"measured_communication_seconds", m.comm_seconds[p]},
                      {"error", measured > 0 ? relative_error(s.phases[p].seconds, measured) : 0.0},
                      {"kernel_seconds", std::move(kernel_seconds)}});
  }
  return {{"ranks", r.ranks}, {"steps", m.steps}, {"iterations", m.iterations}, {"step_seconds", m.step_seconds},
          {"predicted_step_seconds", s.seconds}, {"step_error", relative_error(s.seconds, m.step_seconds)},
          {"phases", std::move(phases)}, {"prediction", prediction_json(s)}};
}

Json bandwidth_json(const PredictionReport& r) {
  Json kinds = Json::array();
  for (const AchievedBandwidth& a : achieved_bandwidth(r))
    kinds.push_back({{"kind", name(a.kind)}, {"bytes", a.bytes}, {"flops", a.flops}, {"seconds", a.seconds},
                     {"gb_per_s", a.gb_per_s}, {"standing", name(a.standing)},
                     {"plotted", a.standing != BandwidthStanding::impossible}});
  return kinds;
}

Json calibration_summary_json(const Calibration& c) {
  Json summary = {{"device", c.device.description},
                  {"date", c.date},
                  {"git", c.build.git},
                  {"copy_gb_per_s", c.copy_gb_per_s},
                  {"cache_bytes", c.device.cache_bytes},
                  {"retained_cache_bytes", c.retained_cache_bytes()},
                  {"pointwise_flops_per_s", c.pointwise_flops_per_second},
                  {"sync_s", c.sync_seconds}};
  summary.update(cost_tables_json(c));
  return summary;
}

}  // namespace

void write_report_json(const std::string& path, const PredictionReport& r) {
  Json root = {{"case",
                {{"name", r.case_name}, {"description", r.case_description}, {"cells", r.cells},
                 {"faces", r.faces}, {"les", r.les}}},
               {"calibration_file", r.calibration_path},
               {"kernel_counts", counts_json(r)}};
  Json& scaling = root["scaling"] = Json::array();
  for (const StepPrediction& s : r.scaling) scaling.push_back(prediction_json(s));
  Json& weak = root["weak_scaling"] = Json::array();
  for (const StepPrediction& s : r.weak) weak.push_back(prediction_json(s));
  if (!r.rank_profiles.empty()) root["communication_counts"] = communication_counts_json(r);
  root["calibration"] = calibration_summary_json(r.calibration);
  if (r.what_if) {
    root["what_if_device"] = calibration_summary_json(*r.what_if);
    root["what_if"] = prediction_json(*r.what_if_step);
  }
  if (r.measured) root["measured"] = measurement_json(r);
  root["achieved_bandwidth"] = bandwidth_json(r);
  root["notes"] = r.notes;
  output::write_file_atomically(path, root.dump(2, ' ', false, Json::error_handler_t::replace) + "\n");
}

std::string plot_script_path() {
  const char* env = std::getenv("MINIAPP_PLOT_SCRIPT");
  return env && *env ? env : MINIAPP_PLOT_SCRIPT;
}

bool draw_plots(const std::string& script, const std::string& json_path, const std::string& out_dir, std::ostream& log) {
  if (!std::filesystem::exists(script)) {
    log << "plots     skipped: " << script << " not found\n";
    return false;
  }
  // The Debian interpreter has python3-matplotlib even where another python3 comes first on PATH.
  std::string python;
  for (const char* candidate : {"python3", "/usr/bin/python3"})
    if (std::system((std::string(candidate) + " -c 'import matplotlib' >/dev/null 2>&1").c_str()) == 0) {
      python = candidate;
      break;
    }
  if (python.empty()) {
    log << "plots     skipped: python3 with matplotlib not found (Debian: apt-get install python3-matplotlib)\n";
    return false;
  }
  const auto quoted = [](const std::string& s) {  // a shell word: ' closed, escaped, reopened
    std::string q = "'";
    for (const char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
  };
  const int status = std::system((python + " " + quoted(script) + " " + quoted(json_path) + " " + quoted(out_dir)).c_str());
  if (status != 0) log << "plots     failed: " << script << " exited with status " << status << "\n";
  return status == 0;
}

}  // namespace miniapp::predict
