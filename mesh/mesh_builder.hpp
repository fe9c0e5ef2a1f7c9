#pragma once
#include <string>
#include <vector>

#include "core/stage_profile.hpp"
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
  // Appends `count` cells of one type in parallel: nodes(i, ids) writes the node ids of the i-th.
  template <class Nodes>
  void add_cells(CellType type, index_t count, Nodes nodes);
  void add_boundary_face(index_t patch, std::initializer_list<index_t> nodes);
  index_t add_patch(std::string name);  // returns the patch index
};

template <class Nodes>
void CellSoup::add_cells(CellType type, index_t count, Nodes nodes) {
  const std::size_t first = cell_types.size(), first_node = cell_nodes.size();
  const auto per_cell = static_cast<std::size_t>(node_count(type));
  checked_index(first_node + per_cell * count, "CellSoup: cell nodes");
  cell_types.resize(first + count, type);
  cell_node_offsets.resize(first + count + 1);
  cell_nodes.resize(first_node + per_cell * count);
#pragma omp parallel for schedule(static)
  for (index_t i = 0; i < count; ++i) {
    const std::size_t end = first_node + per_cell * (i + 1);
    cell_node_offsets[first + i + 1] = static_cast<index_t>(end);
    nodes(i, cell_nodes.data() + end - per_cell);
  }
}

// A request to glue patch_a to patch_b (patch_b = patch_a shifted by translation).
struct PeriodicRequest {
  std::string patch_a, patch_b;
  Vec3 translation;
};

// Builds the face-based mesh from cells; `source` names the origin (file or generator) in errors.
// Throws miniapp::Error on unclosed meshes, faces shared by more than two cells, patches named in
// `periodic` that do not exist or whose faces do not match under the translation. With `profile`,
// times its parts (face matching, face order, periodic matching, face assembly).
Mesh build_mesh(const CellSoup& cells, const std::vector<PeriodicRequest>& periodic, const std::string& source,
                StageProfile* profile = nullptr);

}  // namespace miniapp::mesh
