#include "miniapp/case/case_section.hpp"

#include <limits>

namespace miniapp::cases {

namespace {

// Integers beyond index_t are rejected here: validation then compares in range.
index_t to_index(long long v, const Section& section, std::string_view name) {
  if (v > std::numeric_limits<index_t>::max() || v < std::numeric_limits<index_t>::min())
    throw section.error(name, std::to_string(v) + " is out of the 32-bit index range");
  return static_cast<index_t>(v);
}

}  // namespace

std::optional<index_t> Section::index(std::string_view name) const {
  const std::optional<long long> v = integer(name);
  if (!v) return std::nullopt;
  return to_index(*v, *this, name);
}

std::optional<Vec3> Section::real3(std::string_view name) const {
  const toml::node* n = node(name);
  if (n == nullptr) return std::nullopt;
  const toml::array& a = *n->as_array();
  return Vec3{*a[0].value<double>(), *a[1].value<double>(), *a[2].value<double>()};
}

std::optional<std::array<index_t, 3>> Section::index3(std::string_view name) const {
  const toml::node* n = node(name);
  if (n == nullptr) return std::nullopt;
  const toml::array& a = *n->as_array();
  std::array<index_t, 3> out{};
  for (std::size_t i = 0; i < 3; ++i) out[i] = to_index(*a[i].value<long long>(), *this, name);
  return out;
}

std::optional<std::vector<std::string>> Section::strings(std::string_view name) const {
  const toml::node* n = node(name);
  if (n == nullptr) return std::nullopt;
  std::vector<std::string> out;
  for (const toml::node& element : *n->as_array()) out.push_back(*element.value<std::string>());
  return out;
}

}  // namespace miniapp::cases
