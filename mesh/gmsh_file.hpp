#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/types.hpp"
#include "core/vec3.hpp"

namespace miniapp::mesh::gmsh {

// A first-order Gmsh element type this reader knows: its number in the MSH format, dimension, node
// count and name (for messages).
struct ElementType {
  int number = 0;
  int dim = 0;
  int nodes = 0;
  const char* name = "";
};

// The elements of one entity block of $Elements, their node tags resolved to indices into
// GmshFile::nodes (file order).
struct ElementBlock {
  int dim = 0;
  int entity = 0;
  const ElementType* type = nullptr;
  std::vector<std::uint64_t> tags;  // element tags
  std::vector<index_t> nodes;       // type->nodes per element
};

// The parts of a .msh 4.1 file that a mesh reader needs; other sections are skipped.
struct GmshFile {
  std::string path;
  std::map<std::pair<int, int>, std::string> physical_names;       // (dim, physical tag) -> name
  std::map<std::pair<int, int>, std::vector<int>> entity_groups;  // (dim, entity tag) -> physical tags
  std::vector<std::uint64_t> node_tags;
  std::vector<Vec3> nodes;
  std::vector<ElementBlock> blocks;

  // The highest dimension of any element (0 when there are none).
  int dimension() const;
  // The patch name of physical group `tag` of dimension `dim`: its $PhysicalNames name, else "group<tag>".
  std::string group_name(int dim, int tag) const;
};

// Reads `path` (MSH 4.1, ASCII or binary). Throws miniapp::Error naming the file, line or byte, section
// and problem on anything malformed: wrong version, truncation, counts that do not add up, undefined
// node tags, unsupported element types.
GmshFile read_gmsh_file(const std::string& path);

}  // namespace miniapp::mesh::gmsh
