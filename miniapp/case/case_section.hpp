#pragma once
// Internal to miniapp_case: typed reads of one section of a case document that has passed
// check_against_schema (so every present key has its schema type).
#include <optional>
#include <string>
#include <toml++/toml.h>
#include <vector>

#include "miniapp/case/case_config.hpp"
#include "miniapp/case/case_names.hpp"

namespace miniapp::cases {

class Section {
 public:
  // The table `name` of `doc` ("physics"), or a patch table given directly (prefix "boundary.lid").
  Section(const toml::table& doc, const std::string& name, const KeyOrigins& origins)
      : table_(doc.get_as<toml::table>(name)), prefix_(name), origins_(origins) {}
  Section(const toml::table* table, std::string prefix, const KeyOrigins& origins)
      : table_(table), prefix_(std::move(prefix)), origins_(origins) {}

  std::string key(std::string_view name) const { return prefix_ + "." + std::string(name); }
  bool has(std::string_view name) const { return node(name) != nullptr; }
  Error error(std::string_view name, std::string_view reason) const { return origins_.error(key(name), reason); }

  std::optional<std::string> string(std::string_view name) const { return get<std::string>(name); }
  std::optional<double> real(std::string_view name) const { return get<double>(name); }
  std::optional<long long> integer(std::string_view name) const { return get<long long>(name); }
  // An integer that must fit index_t (sign and lower bounds are checked by validation).
  std::optional<index_t> index(std::string_view name) const;
  std::optional<Vec3> real3(std::string_view name) const;
  std::optional<std::array<index_t, 3>> index3(std::string_view name) const;
  std::optional<std::vector<std::string>> strings(std::string_view name) const;

  // The enumerated value spelled by the key, `fallback` if absent; an unknown spelling is an error
  // that lists the allowed ones.
  template <class E, std::size_t N>
  std::optional<E> choice(std::string_view name, const NameTable<E, N>& table) const {
    const std::optional<std::string> text = string(name);
    if (!text) return std::nullopt;
    if (const E* value = find_value(table, *text)) return *value;
    throw error(name, "unknown value \"" + *text + "\" (allowed: " + allowed_list(table) + ")");
  }

  // The value of a key the case must give.
  template <class T>
  T required(std::optional<T> value, std::string_view name, std::string_view why = "required") const {
    if (!value) throw error(name, std::string(why));
    return *value;
  }

 private:
  const toml::node* node(std::string_view name) const { return table_ ? table_->get(name) : nullptr; }
  template <class T>
  std::optional<T> get(std::string_view name) const {
    const toml::node* n = node(name);
    return n ? n->value<T>() : std::nullopt;
  }

  const toml::table* table_;
  std::string prefix_;
  const KeyOrigins& origins_;
};

}  // namespace miniapp::cases
