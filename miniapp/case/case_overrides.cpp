#include <utility>
#include <vector>

#include "miniapp/case/case_schema.hpp"
#include "miniapp/case/case_toml.hpp"

namespace miniapp::cases {

namespace {

// Keys of which a case gives exactly one: overriding one replaces the other.
constexpr std::pair<std::string_view, std::string_view> exclusive_keys[] = {{"physics.re", "physics.nu"}};

Error override_error(const KeyOrigins& origins, const std::string& arg, const std::string& why) {
  return Error(origins.file + ": --set " + arg + ": " + why);
}

// A table holding the value text under "value". Strings may be given without quotes (the shell
// eats them).
toml::table parse_value(const KeyOrigins& origins, const std::string& arg, const std::string& text, ValueKind kind) {
  toml::table holder;
  if (kind == ValueKind::string && !text.starts_with('"') && !text.starts_with('\'')) {
    holder.insert("value", text);
    return holder;
  }
  try {
    const std::string document = "value = " + text;
    holder = toml::parse(std::string_view(document), std::string_view("--set"));
  } catch (const toml::parse_error& e) {
    throw override_error(origins, arg, "cannot read '" + text + "' as a TOML value (" + std::string(e.description()) +
                                  "); examples: 1000, 0.5, \"wale\", [32, 32, 1]");
  }
  if (holder.size() != 1 || !holder.contains("value"))
    throw override_error(origins, arg, "'" + text + "' is more than one TOML value");
  return holder;
}

// The dotted key split into its tables and its leaf: "boundary.a.b.type" -> {"boundary", "a.b"}, "type".
std::pair<std::vector<std::string>, std::string> split_key(const std::string& key) {
  const auto first = key.find('.'), last = key.rfind('.');
  std::vector<std::string> tables{key.substr(0, first)};
  if (first != last) tables.push_back(key.substr(first + 1, last - first - 1));
  return {tables, key.substr(last + 1)};
}

void apply_override(toml::table& doc, const std::string& arg, KeyOrigins& origins) {
  const auto eq = arg.find('=');
  if (eq == std::string::npos || eq == 0)
    throw override_error(origins, arg, "expected section.key=value, e.g. --set physics.re=1000");
  const std::string key = arg.substr(0, eq), text = arg.substr(eq + 1);
  const KeySpec* spec = find_key_spec(key);
  if (spec == nullptr) throw override_error(origins, arg, key + ": " + unknown_key_reason(key));

  const auto [tables, leaf] = split_key(key);
  toml::table* table = &doc;
  for (const std::string& name : tables) {
    if (!table->contains(name)) table->insert(name, toml::table{});
    table = table->get_as<toml::table>(name);
    if (table == nullptr) throw override_error(origins, arg, name + " is not a table in the case file");
  }
  toml::table value = parse_value(origins, arg, text, spec->kind);
  table->insert_or_assign(leaf, std::move(*value.get("value")));
  origins.where[key] = "--set " + arg;

  for (const auto& [a, b] : exclusive_keys) {
    const std::string_view other = key == a ? b : key == b ? a : std::string_view{};
    const auto it = origins.where.find(other);
    if (!other.empty() && (it == origins.where.end() || !it->second.starts_with("--set")))
      table->erase(other.substr(other.rfind('.') + 1));
  }
}

}  // namespace

void apply_overrides(toml::table& doc, std::span<const std::string> overrides, KeyOrigins& origins) {
  for (const std::string& arg : overrides) apply_override(doc, arg, origins);
}

}  // namespace miniapp::cases
