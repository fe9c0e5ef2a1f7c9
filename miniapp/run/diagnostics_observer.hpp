#pragma once
#include <array>
#include <memory>
#include <optional>
#include <vector>

#include "miniapp/output/series_writer.hpp"
#include "miniapp/run/simulation.hpp"
#include "miniapp/time/flow_diagnostics.hpp"

namespace miniapp::run {

// diagnostics.csv: every output.diagnostics_interval steps, the integrals and the energy budget of
// the step (time::FlowDiagnostics, on the executor), the step's Δt, CFL and Poisson solve; rows
// without the enstrophy and the maximum divergence give them as nan. Collective; rank 0 writes the
// file.
class DiagnosticsObserver {
 public:
  // `extra_columns`: other observers' columns (the wall quantities), before the last, wall_seconds.
  DiagnosticsObserver(const Simulation& sim, std::optional<long> restart_step,
                      const std::vector<std::string>& extra_columns = {});

  // Whether the step just taken gets a row.
  bool due(long step) const { return step % interval_ == 0; }
  // Whether the row of `step` also gives the columns that cost a pass of their own (the enstrophy and
  // the maximum divergence): on the steps that are multiples of output.enstrophy_divergence_interval
  // (by step, not by row, so that a restarted run's rows equal an uninterrupted run's).
  bool all_columns_due(long step) const { return step % gradient_interval_ == 0; }
  // Evaluates the integrals of the current fields (collective), the costly ones when all_columns_due.
  time::FlowIntegrals evaluate(const time::FlowFields& f) { return flow_.evaluate(f, all_columns_due(f.step)); }
  // The same in two halves around the read of a batch that the row's other observers share
  // (time::FlowDiagnostics::queue and finish).
  void queue(const time::FlowFields& f, time::ResultBatch& batch) { flow_.queue(f, all_columns_due(f.step), batch); }
  time::FlowIntegrals finish(const time::FlowFields& f, const time::ResultBatch& batch) { return flow_.finish(f, batch); }
  // Appends the row of the step just taken (rank 0; a no-op on the others).
  void write(const time::FlowFields& f, const time::StepReport& report, const time::FlowIntegrals& integrals,
             const std::vector<double>& extra, double wall_seconds);
  // The velocity gradient of the current fields, g_ab at index 3a + b on the host in mesh order (for
  // vorticity and Q in the VTK files).
  std::array<std::vector<double>, 9> host_gradient();

  // The CSV columns after "step", without the extra ones and wall_seconds.
  static std::vector<std::string> columns();

 private:
  const Simulation& sim_;
  time::FlowDiagnostics flow_;
  long long interval_;
  long long gradient_interval_;
  std::optional<output::SeriesWriter> file_;
};

}  // namespace miniapp::run
