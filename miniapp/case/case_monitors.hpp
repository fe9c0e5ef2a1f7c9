#pragma once
// Internal to miniapp_case: the observers a case configures ([statistics], [forces.<patch>],
// [probes.<name>]), read from a document that has passed check_against_schema, and their checks.
#include <toml++/toml.h>

#include "mesh/mesh.hpp"
#include "miniapp/case/case_config.hpp"

namespace miniapp::cases {

StatisticsConfig read_statistics(const toml::table& doc, const KeyOrigins& origins);
// Defaults from [physics] (reference velocity and length), so read after it.
std::vector<ForcesConfig> read_forces(const toml::table& doc, const PhysicsConfig& physics, const KeyOrigins& origins);
std::vector<ProbeConfig> read_probes(const toml::table& doc, const KeyOrigins& origins);

// Values and consistency with the run and a generated mesh: the averaging start before run.end_time,
// reference values > 0, a profile axis whose two other axes are periodic, forces on a wall patch of
// the box. A file mesh's patches are checked once it is read (validate_boundaries).
void validate_monitors(const CaseConfig& config);

// Each [forces.<patch>] names a patch of `patches` (a mesh's, named `mesh_what` in messages) whose
// condition is a wall or moving wall.
void check_force_patches(const CaseConfig& config, const KeyOrigins& origins, const std::vector<std::string>& patches,
                         const std::string& mesh_what);

}  // namespace miniapp::cases
