#include <algorithm>
#include <cmath>
#include <sstream>

#include "miniapp/case/case_schema.hpp"
#include "miniapp/case/case_toml.hpp"

namespace miniapp::cases {

namespace {

bool is_array_of(const toml::node& node, std::size_t size, bool (toml::node::*test)() const noexcept) {
  const toml::array* array = node.as_array();
  if (array == nullptr || (size != 0 && array->size() != size)) return false;
  for (const toml::node& element : *array)
    if (!(element.*test)()) return false;
  return true;
}

bool matches(const toml::node& node, ValueKind kind) {
  switch (kind) {
    case ValueKind::string: return node.is_string();
    case ValueKind::integer: return node.is_integer();
    case ValueKind::real: return node.is_number();
    case ValueKind::integer3: return is_array_of(node, 3, &toml::node::is_integer);
    case ValueKind::real3: return is_array_of(node, 3, &toml::node::is_number);
    case ValueKind::string_list: return is_array_of(node, 0, &toml::node::is_string);
  }
  return false;
}

// "a string", "an array of 2 values", ...: what the file holds, for the error message.
std::string describe(const toml::node& node) {
  if (const toml::array* array = node.as_array()) {
    std::ostringstream out;
    out << "an array of " << array->size() << " value" << (array->size() == 1 ? "" : "s");
    if (!array->empty() && !array->is_homogeneous()) out << " of mixed types";
    else if (!array->empty()) out << " (" << array->front().type() << ")";
    return out.str();
  }
  std::ostringstream type;
  type << node.type();
  const bool vowel = std::string_view("aeiou").find(type.str().front()) != std::string_view::npos;
  return (vowel ? "an " : "a ") + type.str();
}

// TOML allows inf and nan; no key of a case means them.
bool finite(const toml::node& node) {
  if (const toml::array* array = node.as_array())
    return std::all_of(array->begin(), array->end(), [](const toml::node& e) { return finite(e); });
  return !node.is_floating_point() || std::isfinite(*node.value<double>());
}

// Remembers where a key is written, unless an override already claimed it.
void record(KeyOrigins& origins, const std::string& dotted, const toml::source_region& source) {
  if (source.begin.line > 0) origins.where.try_emplace(dotted, std::to_string(source.begin.line));
}

// The keys of one section table ([physics], [boundary.lid], ...).
void check_section(const toml::table& table, const std::string& prefix, KeyOrigins& origins) {
  for (auto&& [key, node] : table) {
    const std::string dotted = prefix + "." + std::string(key.str());
    record(origins, dotted, key.source());
    const KeySpec* spec = find_key_spec(dotted);
    if (spec == nullptr) throw origins.error(dotted, unknown_key_reason(dotted));
    if (!matches(node, spec->kind))
      throw origins.error(dotted, "expected " + std::string(cases::describe(spec->kind)) + ", got " + describe(node));
    if (!finite(node)) throw origins.error(dotted, "must be finite (inf and nan are not allowed)");
  }
}

// A section of named tables: [boundary.<patch>], [forces.<patch>], [probes.<name>].
void check_named_tables(const toml::table& section, const std::string& section_name, KeyOrigins& origins) {
  for (auto&& [name, node] : section) {
    const std::string dotted = section_name + "." + std::string(name.str());
    record(origins, dotted, name.source());
    const toml::table* table = node.as_table();
    if (table == nullptr)
      throw origins.error(dotted, "[" + section_name + "] holds one table per " +
                                      (section_name == "probes" ? "probe" : "patch") + ", e.g. [" + dotted + "]");
    check_section(*table, dotted, origins);
  }
}

}  // namespace

void check_against_schema(const toml::table& doc, KeyOrigins& origins) {
  for (auto&& [key, node] : doc) {
    const std::string section(key.str());
    record(origins, section, key.source());
    if (!is_section(section)) throw origins.error(section, unknown_key_reason(section));
    const toml::table* table = node.as_table();
    if (table == nullptr) throw origins.error(section, "expected a table [" + section + "], got " + describe(node));
    if (!named_table_placeholder(section).empty())
      check_named_tables(*table, section, origins);
    else
      check_section(*table, section, origins);
  }
}

}  // namespace miniapp::cases
