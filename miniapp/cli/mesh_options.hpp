#pragma once
#include <cxxopts.hpp>
#include <string>

#include "miniapp/case/case_config.hpp"

// The mesh options shared by every subcommand that builds or reads a mesh:
//   --mesh hex|tet|prism|FILE.msh  --cells NX,NY,NZ  --length LX,LY,LZ  --periodic xyz|none
//   --stretch SX,SY,SZ  --layers N (extrusion of a 2D .msh)
// They fill a case file's [mesh] section (cases::MeshConfig), which cases::make_case_mesh builds: one
// description of a mesh, whether it comes from a case or from the command line.
namespace miniapp::cli {

// Defaults that differ between subcommands, as option strings.
struct MeshDefaults {
  std::string cells = "8,8,8";
  std::string periodic = "none";
};

void add_mesh_options(cxxopts::Options& options, const MeshDefaults& defaults);

// Reads and checks every mesh option before anything is built; throws miniapp::Error naming the
// option for a malformed value, a value out of range, a missing .msh file, or an option that does not
// apply to the chosen mesh (e.g. --cells with a .msh file, periodic x or y on an extruded mesh).
// Generated boxes start at the origin; a 3D file's periodic axes glue its patches <axis>min and
// <axis>max, LX, LY or LZ apart.
cases::MeshConfig parse_mesh_options(const cxxopts::ParseResult& result);

// One line such as "hex box 8×8×8, length 1×1×1, periodic xyz" or "file.msh, periodic none".
std::string describe(const cases::MeshConfig& mesh);

// Number of cells a generator makes (not for files): hex nx·ny·nz, tet 6×, prism 2×.
long long generated_cell_count(const cases::MeshConfig& mesh);

}  // namespace miniapp::cli
