#pragma once
#include <array>
#include <cxxopts.hpp>
#include <string>
#include <string_view>

#include "mesh/mesh.hpp"

// The mesh options shared by every subcommand that builds or reads a mesh:
//   --mesh hex|tet|prism|FILE.msh  --cells NX,NY,NZ  --length LX,LY,LZ  --periodic xyz|none
//   --stretch SX,SY,SZ  --layers N (extrusion of a 2D .msh)
namespace miniapp::cli {

enum class MeshKind { hex, tet, prism, file };

struct MeshOptions {
  MeshKind kind = MeshKind::hex;
  std::string path;  // the .msh file when kind = file
  std::array<index_t, 3> cells{8, 8, 8};
  std::array<double, 3> length{1, 1, 1};
  std::array<bool, 3> periodic{false, false, false};
  std::array<double, 3> stretch{0, 0, 0};
  index_t layers = 8;
};

// Defaults that differ between subcommands, as option strings.
struct MeshDefaults {
  std::string cells = "8,8,8";
  std::string periodic = "none";
};

void add_mesh_options(cxxopts::Options& options, const MeshDefaults& defaults);

// Reads and checks every mesh option before anything is built; throws miniapp::Error naming the
// option for a malformed value, a value out of range, or an option that does not apply to the
// chosen mesh (e.g. --cells with a .msh file, periodic x or y on an extruded prism mesh).
MeshOptions parse_mesh_options(const cxxopts::ParseResult& result);

// Generates or reads the mesh. Generated boxes start at the origin.
mesh::Mesh make_mesh(const MeshOptions& options);

// "hex", "tet", "prism" or "file".
std::string_view kind_name(MeshKind kind);

// One line such as "hex box 8×8×8, length 1×1×1, periodic xyz" or "file.msh".
std::string describe(const MeshOptions& options);

// Number of cells a generator makes from these options (not for files): hex nx·ny·nz, tet 6×, prism 2×.
long long generated_cell_count(const MeshOptions& options);

}  // namespace miniapp::cli
