#pragma once
// Internal to miniapp_case: the steps between the TOML document and the typed CaseConfig.
#include <span>
#include <string>
#include <toml++/toml.h>

#include "miniapp/case/case_config.hpp"
#include "miniapp/case/case_errors.hpp"

namespace miniapp::cases {

// Applies `--set section.key=value` arguments to the document: each key must exist in the schema and
// each value must read as a TOML value (quotes optional for string keys). Records "--set ARG" as the
// key's origin; setting physics.re drops a physics.nu from the file and vice versa. Throws
// miniapp::Error naming the argument.
void apply_overrides(toml::table& doc, std::span<const std::string> overrides, KeyOrigins& origins);

// Checks every section and key of the document against the schema (unknown names, value types) and
// records the line of each key in `origins`. Each misfit goes to `errors` (naming the key and its
// line) and is removed from the document, so that reading it reports nothing twice.
void check_against_schema(toml::table& doc, KeyOrigins& origins, CaseErrors& errors);

}  // namespace miniapp::cases
