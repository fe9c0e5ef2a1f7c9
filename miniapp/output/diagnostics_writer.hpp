#pragma once
#include <cstdio>
#include <filesystem>
#include <optional>

namespace miniapp::output {

// One line of diagnostics.csv: the state of the run after a step.
struct DiagnosticsRow {
  long step = 0;
  double time = 0;
  double dt = 0;
  double cfl = 0;
  double kinetic_energy = 0;  // ½ Σ |u|² V
  double enstrophy = 0;       // ½ Σ |ω|² V
  double dissipation = 0;
  double max_div = 0;         // max |M u| over cells
  int poisson_iterations = 0;
  double poisson_residual = 0;
  double wall_seconds = 0;
};

// Appends one line per step to <dir>/diagnostics.csv, flushed after each line so that a crash loses
// nothing already written. Used by rank 0 only (values are global reductions).
class DiagnosticsWriter {
 public:
  // The CSV header line, without newline.
  static constexpr const char* header =
      "step,time,dt,cfl,kinetic_energy,enstrophy,dissipation,max_div,poisson_iterations,"
      "poisson_residual,wall_seconds";

  // A fresh run (restart_step empty) starts a new file with the header. A restart from a checkpoint
  // at restart_step keeps the lines with step <= restart_step of the existing file and appends after
  // them, so the file ends up equal to an uninterrupted run's. Creates `dir` if needed.
  DiagnosticsWriter(const std::filesystem::path& dir, std::optional<long> restart_step = std::nullopt);
  ~DiagnosticsWriter();
  DiagnosticsWriter(const DiagnosticsWriter&) = delete;
  DiagnosticsWriter& operator=(const DiagnosticsWriter&) = delete;

  // Appends `row` (doubles with 17 significant digits, so they read back exactly) and flushes.
  void write(const DiagnosticsRow& row);

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  std::FILE* file_ = nullptr;
};

}  // namespace miniapp::output
