#include "miniapp/case/case_catalog.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <ostream>

#include "miniapp/case/case_parser.hpp"
#include "core/error.hpp"

namespace miniapp::cases {

namespace fs = std::filesystem;

std::string cases_dir() {
  if (const char* env = std::getenv("MINIAPP_CASES_DIR"); env != nullptr && *env != '\0') return env;
  return MINIAPP_CASES_DIR;
}

std::vector<std::string> list_cases() {
  const fs::path dir = cases_dir();
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw Error("cases folder " + dir.string() + " does not exist (set MINIAPP_CASES_DIR to the folder of the shipped cases)");
  std::vector<std::string> names;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir))
    if (entry.is_regular_file() && entry.path().extension() == ".toml") names.push_back(entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

std::string case_path(const std::string& name) {
  const std::vector<std::string> names = list_cases();
  if (std::find(names.begin(), names.end(), name) == names.end()) {
    std::string available;
    for (const std::string& n : names) available += (available.empty() ? "" : ", ") + n;
    throw Error("unknown case '" + name + "' (available in " + cases_dir() + ": " + available +
                "; or give the path of a .toml file)");
  }
  return (fs::path(cases_dir()) / (name + ".toml")).string();
}

std::string resolve_case(const std::string& argument) {
  if (fs::is_regular_file(argument) || fs::path(argument).extension() == ".toml") return argument;
  return case_path(argument);
}

void print_catalog(std::ostream& out) {
  const std::vector<std::string> names = list_cases();
  std::size_t width = 0;
  for (const std::string& n : names) width = std::max(width, n.size());
  for (const std::string& n : names) {
    std::string description;
    try {
      description = load_case(case_path(n)).description;
    } catch (const Error& e) {
      // One line per case: a list of errors is joined.
      std::string why = e.what();
      for (std::size_t at; (at = why.find("\n  ")) != std::string::npos;) why.replace(at, 3, "; ");
      description = "(invalid: " + why + ")";
    }
    out << n << std::string(width + 2 - n.size(), ' ') << description << "\n";
  }
}

}  // namespace miniapp::cases
