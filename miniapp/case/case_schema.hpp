#pragma once
#include <span>
#include <string>
#include <string_view>

// The list of keys a case file may hold, with the type of each value. The parser rejects anything
// else; docs/case-files.md documents exactly these keys (a test compares the two).
namespace miniapp::cases {

enum class ValueKind {
  string,
  integer,
  real,         // an integer or a float
  integer3,     // [i, j, k]
  real3,        // [x, y, z], integers or floats
  string_list,  // ["a", "b", ...]
};

// One key: its dotted name ("physics.re"; the named tables are written "boundary.<patch>.type",
// "forces.<patch>.reference_area", "probes.<name>.position").
struct KeySpec {
  std::string_view key;
  ValueKind kind;
};

inline constexpr std::string_view patch_placeholder = "<patch>";
inline constexpr std::string_view name_placeholder = "<name>";

// The placeholder of a section made of named tables ("<patch>" for boundary and forces, "<name>" for
// probes), or "" for a plain section.
std::string_view named_table_placeholder(std::string_view section);

// Every key of the schema, grouped by section in file order.
std::span<const KeySpec> case_schema();

// The spec of a dotted key ("boundary.lid.type" finds "boundary.<patch>.type"), or nullptr.
const KeySpec* find_key_spec(std::string_view dotted);

// Whether `section` names a top-level table of the schema ("physics", "boundary", ...).
bool is_section(std::string_view section);

// "unknown key (did you mean physics.re?)" for a dotted key the schema lacks; the suggestion is the
// closest key of the same section within edit distance 2, else one whose name is a known synonym
// (physics.reynolds) or holds the given name or is held by it, if any ("unknown section" likewise,
// by edit distance).
std::string unknown_key_reason(std::string_view dotted);

// "a string", "an integer", ..., for error messages.
std::string_view describe(ValueKind kind);

// Levenshtein distance: the fewest single-character insertions, deletions and substitutions.
std::size_t edit_distance(std::string_view a, std::string_view b);

}  // namespace miniapp::cases
