#pragma once
#include <iosfwd>
#include <string>
#include <vector>

// The shipped cases: a case named NAME is the file NAME.toml in the cases folder.
namespace miniapp::cases {

// The cases folder: $MINIAPP_CASES_DIR when set, else the source tree's cases/ (compile definition).
std::string cases_dir();

// The names of the shipped cases (file stems of cases/*.toml), sorted.
std::vector<std::string> list_cases();

// The file of the shipped case `name`. Throws miniapp::Error listing the available names when there
// is none.
std::string case_path(const std::string& name);

// A command-line case argument: an existing file, or a path ending in .toml, is taken as it is;
// anything else is the name of a shipped case.
std::string resolve_case(const std::string& argument);

// One line per shipped case: its name, padded, and its [case].description. A case that fails to load
// is listed with the reason instead, so one broken file does not hide the others.
void print_catalog(std::ostream& out);

}  // namespace miniapp::cases
