#pragma once
#include <string>
#include <vector>

#include "mesh/mesh.hpp"

namespace miniapp::mesh {

// Cells given by their nodes, as a generator or a file reader produces them. The builder finds the
// faces; every face of a single cell must appear among `boundary_faces` (with its patch), else the
// mesh is not closed and building fails.
struct CellSoup {
  std::vector<Vec3> nodes;
  std::vector<CellType> cell_types;
  std::vector<index_t> cell_node_offsets{0};
  std::vector<index_t> cell_nodes;

  std::vector<std::string> patch_names;
  std::vector<index_t> boundary_face_node_offsets{0};  // boundary faces, any node order
  std::vector<index_t> boundary_face_nodes;
  std::vector<index_t> boundary_face_patch;  // index into patch_names

  void add_cell(CellType type, std::initializer_list<index_t> nodes);
  void add_boundary_face(index_t patch, std::initializer_list<index_t> nodes);
  index_t add_patch(std::string name);  // returns the patch index
};

// A request to glue patch_a to patch_b (patch_b = patch_a shifted by translation).
struct PeriodicRequest {
  std::string patch_a, patch_b;
  Vec3 translation;
};

// Builds the face-based mesh from cells; `source` names the origin (file or generator) in errors.
// Throws miniapp::Error on unclosed meshes, faces shared by more than two cells, patches named in
// `periodic` that do not exist or whose faces do not match under the translation.
Mesh build_mesh(const CellSoup& cells, const std::vector<PeriodicRequest>& periodic, const std::string& source);

}  // namespace miniapp::mesh
