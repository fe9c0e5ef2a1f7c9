#pragma once
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "mesh/mesh.hpp"

namespace miniapp::parallel {

// The name of the patch that closes a rank's mesh where its halo cells touch cells it does not hold.
inline constexpr std::string_view cut_patch_name = "(partition cut)";

// The mesh of the cells one rank holds: `cells` are global cell indices (owned, then halo, in the
// order of parallel::LocalNumbering), which become local cells 0, 1, ... in that order. Faces:
//   - global faces between two held cells stay interior (periodic ones stay periodic, owner on the
//     same side; other faces get owner < neighbour, their nodes reversed when the sides swap);
//   - global boundary faces of held cells stay on their patches, which keep their names and order
//     (a patch may be left with no face);
//   - a face between a held cell and a cell not held becomes a boundary face of an extra last patch,
//     cut_patch_name (joining the mesh's own last patch of that name when it is already a rank's
//     piece), owned by the held cell (nodes moved across a periodic link when the cell sees the face
//     from the far side), so that every held cell keeps all its faces and its exact volume.
// Nodes are renumbered to those the held cells use. Every face of an owned cell has both its cells
// held (the halo is the set of face neighbours of owned cells), so every operator row of an owned
// cell assembled on this mesh equals the global row; rows of halo cells see the cut patch instead of
// their missing neighbours and are not used. Throws when `cells` repeats a cell or names one that
// does not exist.
mesh::Mesh extract_local_mesh(const mesh::Mesh& global, std::span<const index_t> cells);

// extract_local_mesh for many sets of cells of one mesh (the ranks' windows on the mesh reader), each
// in time proportional to its cells, not to the mesh: the cells' faces come from a cell-to-face map
// made once, and the maps from global to local cells and nodes are made once and cleared after each
// cut. Holds 4-byte indices, 2 per cell, 3 per face and 1 per node of the mesh, and a bit per face;
// `global` must outlive it.
class LocalMeshCutter {
 public:
  explicit LocalMeshCutter(const mesh::Mesh& global);
  // The same mesh as extract_local_mesh(global, cells), and the same errors.
  mesh::Mesh operator()(std::span<const index_t> cells);
  const mesh::Mesh& global() const { return global_; }

 private:
  void number_cells(std::span<const index_t> cells);
  index_t node(index_t global_node, const Vec3& shift, mesh::Mesh& local);
  void copy_cells(std::span<const index_t> cells, mesh::Mesh& local);
  void write_faces(std::span<const index_t> cells, mesh::Mesh& local);
  void reset(std::span<const index_t> cells);

  const mesh::Mesh& global_;
  std::vector<index_t> face_offsets_, cell_faces_;  // the faces of each cell (CSR)
  std::vector<index_t> link_of_;                    // per interior face: its periodic link, or −1
  std::vector<int> patch_of_;                       // per boundary face: its patch
  std::vector<index_t> local_of_, node_of_;         // global cell and node → local, −1 when not held
  std::vector<index_t> used_nodes_;                 // the global nodes node_of_ maps in this cut
  std::vector<std::uint64_t> held_faces_;           // a bit per face, set for the cut's faces
};

}  // namespace miniapp::parallel
