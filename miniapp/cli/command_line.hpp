#pragma once
#include <cxxopts.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/types.hpp"

// Parsing helpers shared by the subcommands. Values are read as strings and converted here so that
// every error message names the option it came from (cxxopts' own conversion errors do not).
namespace miniapp::cli {

// Parses argv; prints the help and returns nullopt when --help is given (the option must be declared
// as "h,help"). Unknown options make cxxopts throw (reported by main); stray positional arguments
// throw miniapp::Error naming the first one.
std::optional<cxxopts::ParseResult> parse_command_line(cxxopts::Options& options, int argc, char** argv);

// A whole string as a number; throws miniapp::Error "--option: 'text' is not ..." otherwise.
double parse_double(const std::string& text, std::string_view option);
long long parse_integer(const std::string& text, std::string_view option);

// A comma-separated list of exactly `count` numbers (any count when count = 0).
std::vector<double> parse_double_list(const std::string& text, std::string_view option, std::size_t count);
std::vector<std::string> split_list(const std::string& text);

// The value of a string option, converted.
double option_double(const cxxopts::ParseResult& result, std::string_view option);
long long option_integer(const cxxopts::ParseResult& result, std::string_view option);
// An integer option that must lie in [min, max]; the message names the option and the range.
index_t option_index(const cxxopts::ParseResult& result, std::string_view option, long long min, long long max);

// Takes every "--set VALUE" / "--set=VALUE" out of argv (cxxopts would split TOML arrays such as
// [32,32,1] at their commas); returns the values in order and leaves the other arguments in `rest`.
std::vector<std::string> take_set_overrides(int argc, char** argv, std::vector<char*>& rest);

}  // namespace miniapp::cli
