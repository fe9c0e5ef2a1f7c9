#pragma once
#include <cstdio>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace miniapp::output {

// A CSV time series, one line per recorded step: the step, then one number per column (17
// significant digits, so they read back exactly). Flushed after each line so that a crash loses
// nothing already written. diagnostics.csv, forces_<patch>.csv and probes.csv are such files, written
// by rank 0 (their values are global reductions).
class SeriesWriter {
 public:
  // `columns`: the names after "step". A fresh run (restart_step empty) starts a new file with the
  // header. A restart from a checkpoint at restart_step keeps the lines with step <= restart_step of
  // the existing file and appends after them, so the file ends up equal to an uninterrupted run's; a
  // file of another header is refused. Creates the folder if needed.
  SeriesWriter(std::filesystem::path path, const std::vector<std::string>& columns,
               std::optional<long> restart_step = std::nullopt);
  ~SeriesWriter();
  SeriesWriter(const SeriesWriter&) = delete;
  SeriesWriter& operator=(const SeriesWriter&) = delete;

  // Appends the line of `step`; `values` holds one number per column.
  void write(long step, std::span<const double> values);

  const std::filesystem::path& path() const { return path_; }
  const std::string& header() const { return header_; }

 private:
  std::filesystem::path path_;
  std::string header_;
  std::size_t columns_;
  std::FILE* file_ = nullptr;
};

}  // namespace miniapp::output
