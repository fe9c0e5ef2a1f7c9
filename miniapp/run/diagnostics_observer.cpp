#include "miniapp/run/diagnostics_observer.hpp"

#include <limits>

namespace miniapp::run {

std::vector<std::string> DiagnosticsObserver::columns() {
  return {"time", "dt", "cfl", "kinetic_energy", "enstrophy", "energy_decay_rate", "viscous_dissipation",
          "model_dissipation", "source_power", "convection_power", "numerical_dissipation", "max_div",
          "poisson_iterations", "poisson_residual"};
}

DiagnosticsObserver::DiagnosticsObserver(const Simulation& sim, std::optional<long> restart_step,
                                         const std::vector<std::string>& extra_columns)
    : sim_(sim),
      flow_(sim.exec, *sim.operators, *sim.domain, sim.config.physics.nu, sim.scheme->velocity_gradient()),
      interval_(sim.config.output.diagnostics_interval),
      gradient_interval_(sim.config.output.enstrophy_divergence_interval) {
  if (sim.rank() != 0) return;
  std::vector<std::string> all = columns();
  all.insert(all.end(), extra_columns.begin(), extra_columns.end());
  all.push_back("wall_seconds");
  file_.emplace(std::filesystem::path(sim.config.output.directory) / "diagnostics.csv", all, restart_step);
}

std::array<std::vector<double>, 9> DiagnosticsObserver::host_gradient() {
  std::array<std::vector<double>, 9> g;
  flow_.for_each_gradient_column(*sim_.fields, [&](int b, const time::FlowDiagnostics::GradientColumn& column) {
    for (int a = 0; a < 3; ++a) g[3 * a + b] = to_mesh_order(sim_, *column[a]);
  });
  return g;
}

void DiagnosticsObserver::write(const time::FlowFields& f, const time::StepReport& report,
                                const time::FlowIntegrals& integrals, const std::vector<double>& extra,
                                double wall_seconds) {
  if (!file_) return;
  const time::EnergyBudget& b = integrals.budget;
  constexpr double empty = std::numeric_limits<double>::quiet_NaN();  // written as nan: not evaluated
  std::vector<double> row{f.time, report.dt, report.cfl, integrals.kinetic_energy, integrals.enstrophy.value_or(empty),
                          b.decay_rate, b.viscous, b.model, b.source_power, b.convection_power, b.numerical(),
                          integrals.max_divergence.value_or(empty), static_cast<double>(report.poisson.iterations),
                          report.poisson.relative_residual};
  row.insert(row.end(), extra.begin(), extra.end());
  row.push_back(wall_seconds);
  file_->write(f.step, row);
}

}  // namespace miniapp::run
