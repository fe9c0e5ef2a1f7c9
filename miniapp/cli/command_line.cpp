#include "miniapp/cli/command_line.hpp"

#include <charconv>
#include <iostream>
#include <sstream>

namespace miniapp::cli {

std::optional<cxxopts::ParseResult> parse_command_line(cxxopts::Options& options, int argc, char** argv) {
  auto result = options.parse(argc, argv);
  if (result.count("help")) {
    std::cout << options.help();
    return std::nullopt;
  }
  if (!result.unmatched().empty())
    throw Error("unexpected argument '" + result.unmatched().front() + "' (options start with --)");
  return result;
}

namespace {

template <class T>
T parse_number(const std::string& text, std::string_view option, std::string_view what) {
  T value{};
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, value);
  if (text.empty() || ec != std::errc{} || ptr != end)
    throw Error("--" + std::string(option) + ": '" + text + "' is not " + std::string(what));
  return value;
}

}  // namespace

double parse_double(const std::string& text, std::string_view option) {
  return parse_number<double>(text, option, "a number");
}

long long parse_integer(const std::string& text, std::string_view option) {
  // Accept integral values written in floating-point notation (1e6) as well as plain integers.
  const double value = parse_number<double>(text, option, "an integer");
  if (value != static_cast<double>(static_cast<long long>(value)) || value > 9e18 || value < -9e18)
    throw Error("--" + std::string(option) + ": '" + text + "' is not an integer");
  return static_cast<long long>(value);
}

std::vector<std::string> split_list(const std::string& text) {
  std::vector<std::string> items;
  std::istringstream in(text);
  for (std::string item; std::getline(in, item, ',');) items.push_back(item);
  if (!text.empty() && text.back() == ',') items.emplace_back();
  return items;
}

std::vector<double> parse_double_list(const std::string& text, std::string_view option, std::size_t count) {
  const auto items = split_list(text);
  if (count != 0 && items.size() != count)
    throw Error("--" + std::string(option) + ": '" + text + "' must be " + std::to_string(count) +
                " comma-separated values");
  if (items.empty()) throw Error("--" + std::string(option) + ": the list is empty");
  std::vector<double> values;
  for (const auto& item : items) values.push_back(parse_double(item, option));
  return values;
}

double option_double(const cxxopts::ParseResult& result, std::string_view option) {
  return parse_double(result[std::string(option)].as<std::string>(), option);
}

long long option_integer(const cxxopts::ParseResult& result, std::string_view option) {
  return parse_integer(result[std::string(option)].as<std::string>(), option);
}

index_t option_index(const cxxopts::ParseResult& result, std::string_view option, long long min, long long max) {
  const long long value = option_integer(result, option);
  if (value < min || value > max)
    throw Error("--" + std::string(option) + ": " + std::to_string(value) + " is outside [" +
                std::to_string(min) + ", " + std::to_string(max) + "]");
  return static_cast<index_t>(value);
}

// Takes every "--set VALUE" / "--set=VALUE" out of argv (cxxopts would split TOML arrays such as
// [32,32,1] at their commas); returns the values in order and leaves the other arguments in `rest`.
std::vector<std::string> take_set_overrides(int argc, char** argv, std::vector<char*>& rest) {
  std::vector<std::string> values;
  const std::string_view flag = "--set";
  for (int i = 0; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == flag) {
      if (i + 1 >= argc) throw Error("--set: missing value (expected section.key=value)");
      values.emplace_back(argv[++i]);
    } else if (arg.starts_with("--set=")) {
      values.emplace_back(arg.substr(flag.size() + 1));
    } else {
      rest.push_back(argv[i]);
    }
  }
  return values;
}

}  // namespace miniapp::cli
