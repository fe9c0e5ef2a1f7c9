#pragma once
#include <string>
#include <vector>

#include "mesh/mesh.hpp"
#include "miniapp/case/case_config.hpp"
#include "miniapp/case/case_errors.hpp"

namespace miniapp::cases {

// Checks the values of a parsed case before anything is allocated: ranges (viscosity, lengths, cell
// counts, CFL, tolerances, times), consistency (FFT Poisson needs a z-periodic extruded mesh; the
// boundary tables of a generated mesh match its non-periodic patches) and the mesh file's existence.
// Appends warnings (e.g. cfl > 1) to config.warnings. Throws miniapp::Error naming file, key, line.
void validate_case(CaseConfig& config);
// The same, keeping each section's first error in `errors` instead of throwing.
void validate_case(CaseConfig& config, CaseErrors& errors);

// A number for messages (up to 12 significant digits).
std::string show_number(double v);
// Throws origins.error(key, "must be > 0 (got v)") unless v > 0.
void require_positive(const KeyOrigins& origins, std::string_view key, double v);

// The patches a generator will make: {xmin, xmax, ...} without the periodic axes; empty for "file".
std::vector<std::string> generated_patches(const MeshConfig& mesh);

// Checks the case's boundary tables against the patches of the built mesh: every table names a mesh
// patch, and every (non-periodic) mesh patch has a table. Throws miniapp::Error listing the names.
void validate_boundaries(const CaseConfig& config, const mesh::Mesh& mesh, const std::string& case_path);

}  // namespace miniapp::cases
