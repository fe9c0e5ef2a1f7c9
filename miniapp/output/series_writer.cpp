#include "miniapp/output/series_writer.hpp"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>

#include "core/error.hpp"
#include "miniapp/output/atomic_file.hpp"
#include "miniapp/output/folder.hpp"

namespace miniapp::output {
namespace {

// The step of a complete data line, or nothing for a line cut short by a crash (fewer columns).
std::optional<long> complete_line_step(const std::string& line, std::size_t column_count) {
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
void truncate_after(const std::filesystem::path& path, const std::string& header, std::size_t column_count,
                    long restart_step) {
  std::string kept = header + "\n";
  std::ifstream in(path);
  std::string line;
  if (in && std::getline(in, line) && line != header)
    throw file_error(path.string(), "line 1: unexpected header '" + line + "', expected '" + header +
                                        "' (written by another version or with other observers)");
  while (std::getline(in, line)) {
    const auto step = complete_line_step(line, column_count);
    if (step && *step <= restart_step) kept += line + "\n";
  }
  write_file_atomically(path, kept);
}

}  // namespace

SeriesWriter::SeriesWriter(std::filesystem::path path, const std::vector<std::string>& columns,
                           std::optional<long> restart_step)
    : path_(std::move(path)), header_("step"), columns_(columns.size()) {
  for (const std::string& c : columns) header_ += "," + c;
  if (path_.has_parent_path()) create_folder(path_.parent_path());
  if (restart_step) truncate_after(path_, header_, columns_ + 1, *restart_step);
  file_ = std::fopen(path_.c_str(), restart_step ? "a" : "w");
  if (!file_) throw file_error(path_.string(), std::string("cannot open for writing: ") + std::strerror(errno));
  if (!restart_step) {
    std::fprintf(file_, "%s\n", header_.c_str());
    std::fflush(file_);
  }
}

SeriesWriter::~SeriesWriter() { std::fclose(file_); }

void SeriesWriter::write(long step, std::span<const double> values) {
  if (values.size() != columns_)
    throw Error(path_.string() + ": " + std::to_string(values.size()) + " values for " + std::to_string(columns_) +
                " columns");
  std::string line = std::to_string(step);
  char number[32];
  for (double v : values) {
    std::snprintf(number, sizeof number, ",%.17g", v);
    line += number;
  }
  line += '\n';
  if (std::fputs(line.c_str(), file_) < 0 || std::fflush(file_) != 0)
    throw file_error(path_.string(), std::string("cannot append a line: ") + std::strerror(errno));
}

}  // namespace miniapp::output
