#include "miniapp/cli/mesh_options.hpp"

#include <cmath>
#include <filesystem>
#include <limits>
#include <sstream>

#include "mesh/gmsh_reader.hpp"
#include "miniapp/cli/command_line.hpp"

namespace miniapp::cli {

void add_mesh_options(cxxopts::Options& options, const MeshDefaults& defaults) {
  options.add_options("Mesh")
      ("mesh", "hex, tet (6 per hex), prism (extruded triangles, 2 per quad) or a Gmsh FILE.msh",
       cxxopts::value<std::string>()->default_value("hex"))
      ("cells", "cells per axis NX,NY,NZ of a generated mesh (prism: NZ layers)",
       cxxopts::value<std::string>()->default_value(defaults.cells))
      ("length", "box size LX,LY,LZ (a 2D .msh: LZ is the extrusion length; a 3D .msh: the periodic shifts)",
       cxxopts::value<std::string>()->default_value("1,1,1"))
      ("periodic", "periodic axes: any of x, y, z, or none (prism and 2D .msh: z only; a 3D .msh: glues "
                   "patches xmin-xmax etc.)",
       cxxopts::value<std::string>()->default_value(defaults.periodic))
      ("stretch", "tanh wall clustering SX,SY,SZ, 0 = uniform (prism: SZ = 0)",
       cxxopts::value<std::string>()->default_value("0,0,0"))
      ("layers", "layers when extruding a 2D .msh", cxxopts::value<std::string>()->default_value("8"));
}

namespace {

// Largest cells per axis product accepted: a tet box makes 6 cells per hex and needs 32-bit indices.
constexpr long long max_generated_cells = std::numeric_limits<index_t>::max() / 8;

cases::MeshGenerator parse_generator(const std::string& text) {
  using G = cases::MeshGenerator;
  if (text == "hex") return G::hex;
  if (text == "tet") return G::tet;
  if (text == "prism") return G::prism;
  if (text.size() > 4 && text.ends_with(".msh")) return G::file;
  throw Error("--mesh: '" + text + "' is not hex, tet, prism or a file name ending in .msh");
}

std::array<index_t, 3> parse_cells(const std::string& text) {
  const auto items = split_list(text);
  if (items.size() != 3) throw Error("--cells: '" + text + "' must be 3 comma-separated integers NX,NY,NZ");
  std::array<index_t, 3> cells{};
  for (int i = 0; i < 3; ++i) {
    const long long n = parse_integer(items[i], "cells");
    if (n < 1 || n > max_generated_cells)
      throw Error("--cells: '" + text + "': every count must be at least 1 (and at most " +
                  std::to_string(max_generated_cells) + ")");
    cells[i] = static_cast<index_t>(n);
  }
  return cells;
}

// Three finite values, each positive (or non-negative when zero_allowed).
std::array<double, 3> parse_triple(const std::string& text, std::string_view option, bool zero_allowed) {
  const auto values = parse_double_list(text, option, 3);
  for (double v : values)
    if (!std::isfinite(v) || v < 0 || (v == 0 && !zero_allowed))
      throw Error("--" + std::string(option) + ": '" + text + "': every value must be finite and " +
                  (zero_allowed ? "non-negative" : "positive"));
  return {values[0], values[1], values[2]};
}

std::array<bool, 3> parse_periodic(const std::string& text) {
  std::array<bool, 3> periodic{false, false, false};
  if (text == "none" || text.empty()) return periodic;
  for (char c : text) {
    const auto axis = std::string("xyz").find(c);
    if (axis == std::string::npos)
      throw Error("--periodic: '" + text + "' may contain only the letters x, y, z (or be 'none')");
    if (periodic[axis]) throw Error("--periodic: '" + text + "' names axis " + c + " twice");
    periodic[axis] = true;
  }
  return periodic;
}

// Rejects options that the chosen mesh kind ignores, so that a typo in intent is not silently dropped.
void check_applicable(const cxxopts::ParseResult& result, const cases::MeshConfig& o) {
  const auto given = [&](const char* name) { return result.count(name) > 0; };
  if (o.generator == cases::MeshGenerator::file) {
    for (const char* name : {"cells", "stretch"})
      if (given(name)) throw Error(std::string("--") + name + ": does not apply to a mesh read from a .msh file");
    return;
  }
  if (given("layers")) throw Error("--layers: applies only to a 2D .msh file (use --cells for generated meshes)");
  if (o.generator == cases::MeshGenerator::prism) {
    if (o.periodic[0] || o.periodic[1])
      throw Error("--periodic: a prism mesh can be periodic only in z (its extrusion direction)");
    if (o.stretch[2] != 0) throw Error("--stretch: SZ must be 0 for a prism mesh (the extrusion is uniform)");
  }
}

// A file's [mesh]: a 2D file extruded by --layers over LZ (periodic in z only), a 3D file read as it is.
void set_file(const cxxopts::ParseResult& result, cases::MeshConfig& o) {
  o.file = result["mesh"].as<std::string>();
  if (!std::filesystem::is_regular_file(o.file)) throw file_error(o.file, "no such file (given by --mesh)");
  if (mesh::gmsh_dimension(o.file) == 3) return;
  if (o.periodic[0] || o.periodic[1])
    throw Error("--periodic: a mesh extruded from the 2D file " + o.file + " can be periodic only in z");
  o.layers = option_index(result, "layers", 1, max_generated_cells);
  o.length_z = o.length.z;
}

}  // namespace

cases::MeshConfig parse_mesh_options(const cxxopts::ParseResult& result) {
  cases::MeshConfig o;
  const auto text = [&](const char* name) { return result[name].as<std::string>(); };
  o.generator = parse_generator(text("mesh"));
  o.cells = parse_cells(text("cells"));
  const auto length = parse_triple(text("length"), "length", false);
  o.length = {length[0], length[1], length[2]};
  o.periodic = parse_periodic(text("periodic"));
  o.stretch = parse_triple(text("stretch"), "stretch", true);
  option_index(result, "layers", 1, max_generated_cells);  // checked whatever the mesh
  check_applicable(result, o);
  if (o.generator == cases::MeshGenerator::file) {
    set_file(result, o);
  } else if (generated_cell_count(o) > max_generated_cells) {
    throw Error("--cells: " + describe(o) + " would have " + std::to_string(generated_cell_count(o)) +
                " cells, more than the " + std::to_string(max_generated_cells) + " one rank can index");
  }
  return o;
}

long long generated_cell_count(const cases::MeshConfig& o) {
  const long long hexes = static_cast<long long>(o.cells[0]) * o.cells[1] * o.cells[2];
  switch (o.generator) {
    case cases::MeshGenerator::tet: return 6 * hexes;
    case cases::MeshGenerator::prism: return 2 * hexes;
    default: return hexes;
  }
}

std::string describe(const cases::MeshConfig& o) {
  std::ostringstream out;
  if (o.generator == cases::MeshGenerator::file) {
    out << o.file;
  } else {
    out << cases::name(o.generator) << " box " << o.cells[0] << "×" << o.cells[1] << "×" << o.cells[2] << ", length "
        << o.length.x << "×" << o.length.y << "×" << o.length.z;
  }
  std::string axes;
  for (int i = 0; i < 3; ++i)
    if (o.periodic[i]) axes += "xyz"[i];
  out << ", periodic " << (axes.empty() ? "none" : axes);
  return out.str();
}

}  // namespace miniapp::cli
