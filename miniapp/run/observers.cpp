#include "miniapp/run/observers.hpp"

namespace miniapp::run {
namespace {

output::FieldSelection field_selection(const cases::CaseConfig& c) {
  using F = cases::OutputField;
  const cases::OutputConfig& o = c.output;
  return {o.has(F::velocity), o.has(F::pressure),  o.has(F::eddy_viscosity), o.has(F::vorticity),
          o.has(F::q_criterion), c.statistics.enabled};
}

std::optional<long> restart_step(const output::CheckpointData* restored) {
  return restored ? std::optional<long>(restored->step) : std::nullopt;
}

}  // namespace

Observers::Observers(const Simulation& sim, const output::CheckpointData* restored)
    : sim_(sim),
      walls_(sim, restart_step(restored)),
      probes_(sim, restart_step(restored)),
      diagnostics_(sim, restart_step(restored), walls_.diagnostics_columns()),
      row_results_(sim.exec, time::FlowDiagnostics::max_results + walls_.results() + probes_.results()) {
  const cases::CaseConfig& c = sim.config;
  if (c.statistics.enabled) {
    averages_.emplace(sim);
    if (restored) averages_->restore(*restored);
    if (c.statistics.profile_axis) profiles_.emplace(sim);
  }
  // An empty field list turns VTK output off (e.g. benchmark runs, or builds without VTK).
  if (!c.output.fields.empty())
    vtk_.emplace(sim.output_mesh(), output::VtkWriterOptions{c.output.directory, c.name, sim.rank(), sim.ranks(),
                                                             field_selection(c), restart_step(restored),
                                                             c.output.compression});
}

bool Observers::sample_statistics() { return averages_ && averages_->sample(*sim_.fields); }

std::optional<double> Observers::record_row(const time::StepReport& report, std::chrono::steady_clock::time_point step_start,
                             bool last_step) {
  const time::FlowFields& f = *sim_.fields;
  if (!last_step && !diagnostics_.due(f.step)) return std::nullopt;
  // Every observer's kernels queued back to back, then one host read for all their results.
  diagnostics_.queue(f, row_results_);
  walls_.queue(f, row_results_);
  probes_.queue(f, row_results_);
  row_results_.read();
  const time::FlowIntegrals integrals = diagnostics_.finish(f, row_results_);
  std::vector<double> wall_columns;
  walls_.record(f, row_results_, wall_columns);
  probes_.record(f, row_results_);
  diagnostics_.write(f, report, integrals, wall_columns,
                     std::chrono::duration<double>(std::chrono::steady_clock::now() - step_start).count());
  return integrals.kinetic_energy;
}

double Observers::kinetic_energy() { return diagnostics_.evaluate(*sim_.fields).kinetic_energy; }

void Observers::write_output() {
  if (profiles_) profiles_->write(*averages_, walls_);
  if (!vtk_) return;
  std::optional<TimeAverages::Means> means;
  if (averages_) means = averages_->means();
  write_vtk(sim_, diagnostics_.host_gradient(), *vtk_, means ? &*means : nullptr);
}

NamedArrays Observers::checkpoint_arrays() const {
  NamedArrays arrays;
  if (averages_) averages_->save(arrays);
  return arrays;
}

}  // namespace miniapp::run
