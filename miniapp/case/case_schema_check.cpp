#include <algorithm>
#include <cmath>
#include <sstream>

#include "miniapp/case/case_errors.hpp"
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

// Why the value of `dotted` does not fit the schema, or "" when it does.
std::string misfit(const std::string& dotted, const toml::node& node) {
  const KeySpec* spec = find_key_spec(dotted);
  if (spec == nullptr) return unknown_key_reason(dotted);
  if (!matches(node, spec->kind))
    return "expected " + std::string(cases::describe(spec->kind)) + ", got " + describe(node);
  if (!finite(node)) return "must be finite (inf and nan are not allowed)";
  return "";
}

// Removes `keys` from `table`: a key already reported is not read again (which would report it twice).
void erase(toml::table& table, const std::vector<std::string>& keys) {
  for (const std::string& key : keys) table.erase(key);
}

// The keys of one section table ([physics], [boundary.lid], ...).
void check_section(toml::table& table, const std::string& prefix, KeyOrigins& origins, CaseErrors& errors) {
  std::vector<std::string> rejected;
  for (auto&& [key, node] : table) {
    const std::string dotted = prefix + "." + std::string(key.str());
    record(origins, dotted, key.source());
    if (const std::string why = misfit(dotted, node); !why.empty()) {
      errors.add(origins.error(dotted, why), dotted);
      rejected.emplace_back(key.str());
    }
  }
  erase(table, rejected);
}

// A section of named tables: [boundary.<patch>], [forces.<patch>], [probes.<name>].
void check_named_tables(toml::table& section, const std::string& section_name, KeyOrigins& origins,
                        CaseErrors& errors) {
  std::vector<std::string> rejected;
  for (auto&& [name, node] : section) {
    const std::string dotted = section_name + "." + std::string(name.str());
    record(origins, dotted, name.source());
    toml::table* table = node.as_table();
    if (table == nullptr) {
      errors.add(origins.error(dotted, "[" + section_name + "] holds one table per " +
                                           (section_name == "probes" ? "probe" : "patch") + ", e.g. [" + dotted + "]"),
                 dotted);
      rejected.emplace_back(name.str());
      continue;
    }
    check_section(*table, dotted, origins, errors);
  }
  erase(section, rejected);
}

}  // namespace

void check_against_schema(toml::table& doc, KeyOrigins& origins, CaseErrors& errors) {
  std::vector<std::string> rejected;
  for (auto&& [key, node] : doc) {
    const std::string section(key.str());
    record(origins, section, key.source());
    toml::table* table = node.as_table();
    if (!is_section(section) || table == nullptr) {
      errors.add(origins.error(section, !is_section(section) ? unknown_key_reason(section)
                                                             : "expected a table [" + section + "], got " + describe(node)),
                 section);
      rejected.push_back(section);
    } else if (!named_table_placeholder(section).empty()) {
      check_named_tables(*table, section, origins, errors);
    } else {
      check_section(*table, section, origins, errors);
    }
  }
  erase(doc, rejected);
}

}  // namespace miniapp::cases
