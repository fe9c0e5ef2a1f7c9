#include "miniapp/output/checkpoint_generations.hpp"

#include <algorithm>
#include <charconv>
#include <optional>
#include <string>
#include <string_view>

#include "miniapp/output/atomic_file.hpp"

namespace miniapp::output {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view prefix = "checkpoint_";
constexpr std::string_view marker_suffix = ".complete";

// The step of "checkpoint_<step><suffix>" (suffix "_r<rank>.bin" or ".complete"), or nothing.
std::optional<long> step_of(std::string_view name, std::string_view suffix) {
  if (!name.starts_with(prefix) || !name.ends_with(suffix)) return std::nullopt;
  const std::string_view digits = name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
  long step = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), step);
  if (error != std::errc() || end != digits.data() + digits.size() || digits.empty()) return std::nullopt;
  return step;
}

}  // namespace

fs::path generation_marker(const fs::path& dir, long step) {
  return dir / (std::string(prefix) + std::to_string(step) + std::string(marker_suffix));
}

void mark_generation_complete(const fs::path& dir, long step, int rank_count) {
  write_file_atomically(generation_marker(dir, step),
                        "step " + std::to_string(step) + "\nranks " + std::to_string(rank_count) + "\n");
}

std::vector<long> complete_generations(const fs::path& dir) {
  std::vector<long> steps;
  std::error_code ec;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec))
    if (const auto step = step_of(entry.path().filename().string(), marker_suffix)) steps.push_back(*step);
  std::sort(steps.rbegin(), steps.rend());
  return steps;
}

void remove_generation_marker(const fs::path& dir, long step) {
  std::error_code ignored;  // already gone is fine
  fs::remove(generation_marker(dir, step), ignored);
}

void remove_rank_files_except(const fs::path& dir, int rank, const std::vector<long>& keep) {
  const std::string file_suffix = "_r" + std::to_string(rank) + ".bin";
  std::error_code ec;
  std::vector<fs::path> doomed;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec)) {
    std::string name = entry.path().filename().string();
    if (name.ends_with(".tmp")) name.resize(name.size() - 4);
    const auto step = step_of(name, file_suffix);
    if (step && std::find(keep.begin(), keep.end(), *step) == keep.end()) doomed.push_back(entry.path());
  }
  for (const fs::path& path : doomed) fs::remove(path, ec);
}

}  // namespace miniapp::output
