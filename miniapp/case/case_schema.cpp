#include "miniapp/case/case_schema.hpp"

#include <algorithm>
#include <numeric>
#include <vector>

namespace miniapp::cases {

namespace {

using enum ValueKind;

constexpr KeySpec schema[] = {
    {"case.name", string},
    {"case.description", string},
    {"mesh.generator", string},
    {"mesh.cells", integer3},
    {"mesh.length", real3},
    {"mesh.origin", real3},
    {"mesh.stretch", real3},
    {"mesh.periodic", string},
    {"mesh.file", string},
    {"mesh.layers", integer},
    {"mesh.length_z", real},
    {"mesh.decomposition", string},
    {"physics.re", real},
    {"physics.nu", real},
    {"physics.reference_velocity", real},
    {"physics.reference_length", real},
    {"physics.body_force", real3},
    {"physics.bulk_velocity", real3},
    {"physics.les", string},
    {"physics.les_constant", real},
    {"initial.type", string},
    {"initial.velocity", real3},
    {"initial.amplitude", real},
    {"initial.perturbation", real},
    {"boundary.<patch>.type", string},
    {"boundary.<patch>.velocity", real3},
    {"numerics.backend", string},
    {"numerics.time_step", string},
    {"numerics.cfl", real},
    {"numerics.max_kappa", real},
    {"numerics.dt", real},
    {"numerics.max_dt", real},
    {"numerics.poisson_tolerance", real},
    {"numerics.poisson_max_iterations", integer},
    {"numerics.preconditioner", string},
    {"numerics.aip_form", string},
    {"numerics.amg_storage", string},
    {"numerics.amg_redundant_rows", integer},
    {"numerics.poisson", string},
    {"numerics.fft_low_frequency_blocks", integer},
    {"numerics.slice_height", integer},
    {"run.end_time", real},
    {"run.max_steps", integer},
    {"run.progress_interval", real},
    {"run.watchdog_timeout", real},
    {"output.directory", string},
    {"output.interval", real},
    {"output.checkpoint_interval", real},
    {"output.checkpoint_keep", integer},
    {"output.fields", string_list},
    {"output.compression", string},
    {"output.diagnostics_interval", integer},
    {"output.enstrophy_divergence_interval", integer},
    {"statistics.start_time", real},
    {"statistics.sample_interval", integer},
    {"statistics.profile_axis", string},
    {"forces.<patch>.reference_area", real},
    {"forces.<patch>.reference_velocity", real},
    {"forces.<patch>.reference_length", real},
    {"forces.<patch>.drag_direction", real3},
    {"forces.<patch>.lift_direction", real3},
    {"probes.<name>.position", real3},
};

std::string_view section_of(std::string_view dotted) { return dotted.substr(0, dotted.find('.')); }

// "boundary.lid.type" -> "boundary.<patch>.type", "probes.wake.position" -> "probes.<name>.position";
// other keys unchanged. The table's name is everything between the first and the last dot, so patch
// names may contain dots.
std::string schema_form(std::string_view dotted) {
  const std::string_view placeholder = named_table_placeholder(section_of(dotted));
  if (placeholder.empty()) return std::string(dotted);
  const auto first = dotted.find('.'), last = dotted.rfind('.');
  if (first == std::string_view::npos || first == last) return std::string(dotted);
  return std::string(section_of(dotted)) + "." + std::string(placeholder) + std::string(dotted.substr(last));
}

// Names users reach for that are no misspelling of the key they mean (section-local leaves).
constexpr std::pair<std::string_view, std::string_view> synonyms[] = {
    {"reynolds", "re"},        {"reynolds_number", "re"}, {"viscosity", "nu"},      {"kinematic_viscosity", "nu"},
    {"courant", "cfl"},        {"timestep", "dt"},        {"time_step", "dt"},      {"les_model", "les"},
    {"model", "les"},          {"solver", "poisson"},     {"pressure_solver", "poisson"},
    {"steps", "max_steps"},    {"t_end", "end_time"},     {"tend", "end_time"},     {"dir", "directory"},
    {"folder", "directory"},   {"resolution", "cells"},   {"size", "length"},       {"gpu", "backend"},
};

std::string_view leaf_of(std::string_view dotted) { return dotted.substr(dotted.rfind('.') + 1); }

// The schema-form key closest to `wanted`, or "": within edit distance 2; else the key its leaf is a
// known synonym of ("reynolds" for "re"); else a key whose leaf holds `wanted`'s or is held by it
// ("tolerance" for "poisson_tolerance").
std::string closest(std::string_view wanted, const std::vector<std::string_view>& candidates) {
  std::string best;
  std::size_t best_distance = 3;
  for (std::string_view c : candidates) {
    const std::size_t d = edit_distance(wanted, c);
    if (d < best_distance) best_distance = d, best = c;
  }
  if (!best.empty() || wanted.find('.') == std::string_view::npos) return best;
  const std::string_view leaf = leaf_of(wanted);
  for (const auto& [synonym, key] : synonyms)
    for (std::string_view c : candidates)
      if (synonym == leaf && leaf_of(c) == key) return std::string(c);
  for (std::string_view c : candidates) {
    const std::string_view other = leaf_of(c);
    if (std::min(leaf.size(), other.size()) >= 3 && (other.find(leaf) != std::string_view::npos ||
                                                     leaf.find(other) != std::string_view::npos))
      return std::string(c);
  }
  return best;
}

}  // namespace

std::span<const KeySpec> case_schema() { return schema; }

std::string_view named_table_placeholder(std::string_view section) {
  if (section == "boundary" || section == "forces") return patch_placeholder;
  if (section == "probes") return name_placeholder;
  return {};
}

const KeySpec* find_key_spec(std::string_view dotted) {
  const std::string key = schema_form(dotted);
  for (const KeySpec& spec : schema)
    if (spec.key == key) return &spec;
  return nullptr;
}

bool is_section(std::string_view section) {
  return std::any_of(std::begin(schema), std::end(schema),
                     [&](const KeySpec& s) { return section_of(s.key) == section; });
}

std::string unknown_key_reason(std::string_view dotted) {
  const std::string_view section = section_of(dotted);
  std::vector<std::string_view> candidates;
  if (!is_section(section)) {
    for (const KeySpec& s : schema)
      if (candidates.empty() || candidates.back() != section_of(s.key)) candidates.push_back(section_of(s.key));
    const std::string suggestion = closest(section, candidates);
    return suggestion.empty() ? "unknown section" : "unknown section (did you mean [" + suggestion + "]?)";
  }
  const std::string key = schema_form(dotted);
  for (const KeySpec& s : schema)
    if (section_of(s.key) == section) candidates.push_back(s.key);
  std::string suggestion = closest(key, candidates);
  if (suggestion.empty()) return "unknown key";
  // Name the user's own table in the suggestion rather than the placeholder.
  const std::string_view placeholder = named_table_placeholder(section);
  if (const auto at = suggestion.find(placeholder); !placeholder.empty() && at != std::string::npos)
    suggestion = std::string(dotted.substr(0, dotted.rfind('.'))) + suggestion.substr(at + placeholder.size());
  return "unknown key (did you mean " + suggestion + "?)";
}

std::string_view describe(ValueKind kind) {
  switch (kind) {
    case string: return "a string";
    case integer: return "an integer";
    case real: return "a number";
    case integer3: return "an array of 3 integers";
    case real3: return "an array of 3 numbers";
    case string_list: return "an array of strings";
  }
  return "?";
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), std::size_t{0});
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t substitute = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
      diagonal = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, substitute});
    }
  }
  return row[b.size()];
}

}  // namespace miniapp::cases
