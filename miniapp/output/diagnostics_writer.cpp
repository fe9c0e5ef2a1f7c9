#include "miniapp/output/diagnostics_writer.hpp"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <string>

#include "core/error.hpp"
#include "miniapp/output/atomic_file.hpp"

namespace miniapp::output {
namespace {

constexpr std::size_t column_count = 11;

// The step of a complete data line, or nothing for a line cut short by a crash (fewer columns).
std::optional<long> complete_line_step(const std::string& line) {
  std::size_t commas = 0;
  for (char c : line) commas += c == ',';
  if (commas != column_count - 1) return std::nullopt;
  long step = 0;
  const auto [end, ec] = std::from_chars(line.data(), line.data() + line.size(), step);
  if (ec != std::errc() || *end != ',') return std::nullopt;
  return step;
}

// Rewrites `path` keeping the header and the complete lines with step <= restart_step; a missing
// file becomes a header-only file.
void truncate_after(const std::filesystem::path& path, long restart_step) {
  std::string kept = std::string(DiagnosticsWriter::header) + "\n";
  std::ifstream in(path);
  std::string line;
  if (in && std::getline(in, line) && line != DiagnosticsWriter::header)
    throw file_error(path.string(), "line 1: unexpected diagnostics header '" + line + "', expected '" +
                                        DiagnosticsWriter::header + "'");
  while (std::getline(in, line)) {
    const auto step = complete_line_step(line);
    if (step && *step <= restart_step) kept += line + "\n";
  }
  write_file_atomically(path, kept);
}

}  // namespace

DiagnosticsWriter::DiagnosticsWriter(const std::filesystem::path& dir, std::optional<long> restart_step)
    : path_(dir / "diagnostics.csv") {
  std::filesystem::create_directories(dir);
  if (restart_step) truncate_after(path_, *restart_step);
  file_ = std::fopen(path_.c_str(), restart_step ? "a" : "w");
  if (!file_) throw file_error(path_.string(), std::string("cannot open for writing: ") + std::strerror(errno));
  if (!restart_step) {
    std::fprintf(file_, "%s\n", header);
    std::fflush(file_);
  }
}

DiagnosticsWriter::~DiagnosticsWriter() { std::fclose(file_); }

void DiagnosticsWriter::write(const DiagnosticsRow& r) {
  const int n = std::fprintf(file_, "%ld,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g,%d,%.17g,%.17g\n", r.step,
                             r.time, r.dt, r.cfl, r.kinetic_energy, r.enstrophy, r.dissipation, r.max_div,
                             r.poisson_iterations, r.poisson_residual, r.wall_seconds);
  if (n < 0 || std::fflush(file_) != 0)
    throw file_error(path_.string(), std::string("cannot append diagnostics: ") + std::strerror(errno));
}

}  // namespace miniapp::output
